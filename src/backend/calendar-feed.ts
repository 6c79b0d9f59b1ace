/**
 * The calendar feed's RPCs (supabase/schemas/calendar_feed.sql) and its address. The token is a
 * secret the server keeps only hashed, so the address can be shown only when it is made; this
 * device remembers the last one it made (the user copies it into a calendar app later), and
 * forgets it when the feed is turned off.
 */
import { backendUrl } from './config.ts';

export interface FeedStatus {
  active: boolean;
  createdAt: string | null;
}

const remembered = (userId: string) => `lb_calendar_feed:${userId}`;

export function feedUrl(token: string): string {
  return `${backendUrl.replace(/\/$/, '')}/functions/v1/calendar-feed?token=${encodeURIComponent(token)}`;
}

/**
 * The same address as a webcal: link (same token), which the system hands to its calendar app to
 * subscribe in one click (Apple Calendar, Outlook, Thunderbird; Google Calendar takes the https one).
 */
export function webcalUrl(address: string): string {
  return address.replace(/^https?:\/\//i, 'webcal://');
}

/** The address this device made last, if the feed is still the one it made. */
export function rememberedFeedUrl(userId: string): string | null {
  try {
    return localStorage.getItem(remembered(userId));
  } catch {
    return null;
  }
}

function remember(userId: string, url: string | null): void {
  try {
    if (url) localStorage.setItem(remembered(userId), url);
    else localStorage.removeItem(remembered(userId));
  } catch {
    // Private mode without storage: the address is shown until the page closes.
  }
}

async function client() {
  return (await import('./supabase.ts')).supabase;
}

export async function feedStatus(): Promise<FeedStatus> {
  const { data, error } = await (await client()).rpc('calendar_feed_status');
  if (error) throw new Error(error.message);
  const status = data as { active?: boolean; created_at?: string | null } | null;
  return { active: status?.active === true, createdAt: status?.created_at ?? null };
}

/** A new address (the earlier one stops working); the error's message is the server's wording. */
export async function createFeed(userId: string): Promise<string> {
  const { data, error } = await (await client()).rpc('create_calendar_feed');
  if (error) throw new Error(error.message);
  const url = feedUrl(String(data));
  remember(userId, url);
  return url;
}

export async function revokeFeed(userId: string): Promise<void> {
  const { error } = await (await client()).rpc('revoke_calendar_feed');
  if (error) throw new Error(error.message);
  remember(userId, null);
}
