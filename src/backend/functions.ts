import type { LinkboardClient } from './page-client.ts';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

/**
 * Sends a mail through the send-email function (docs/product.md, Server calls): true when it was accepted;
 * otherwise a warning is logged and false returned. It never throws, so it never blocks
 * the caller. `client` defaults to the page's supabase-js client (loaded on first use).
 */
export async function sendEmail(mail: Mail, client?: Pick<LinkboardClient, 'functions'>): Promise<boolean> {
  try {
    const caller = client ?? (await import('./supabase.ts')).supabase;
    const { error, response } = await caller.functions.invoke('send-email', { body: mail });
    if (error) {
      console.warn(`SendEmail failed with status ${response?.status ?? 'unknown'}`);
      return false;
    }
    return true;
  } catch (error) {
    console.warn('SendEmail error', error);
    return false;
  }
}
