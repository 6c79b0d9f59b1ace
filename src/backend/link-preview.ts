/**
 * The server's link-preview and link-image functions, as the app calls them (docs/architecture.md,
 * Link previews): an ask for a saved link's preview, and the address of its pictures.
 */
import { backendUrl } from './config.ts';

/** What an ask came to: read (or known), being read by another ask, gone, or to ask again later. */
export type PreviewAnswer =
  | { kind: 'answered' }
  | { kind: 'gone' }
  | { kind: 'later'; /** Milliseconds to wait, when the server said (429). */ waitMs?: number };

interface FunctionsCaller {
  auth: { getSession(): Promise<{ data: { session: { access_token: string } | null } }> };
  functions: {
    invoke(name: string, options: { body: Record<string, unknown> }): Promise<{ error: unknown; response?: Response }>;
  };
}

/** Asks the server to read the page of link `id` (again when `retry` and it failed). */
export async function askLinkPreview(id: string, retry: boolean, client?: FunctionsCaller): Promise<PreviewAnswer> {
  try {
    const caller: FunctionsCaller = client ?? (await import('./supabase.ts')).supabase;
    const { data } = await caller.auth.getSession();
    if (!data.session) return { kind: 'later' };
    const { error, response } = await caller.functions.invoke('link-preview', {
      body: retry ? { link_id: id, retry: true } : { link_id: id },
    });
    if (!error) return { kind: 'answered' };
    const status = response?.status;
    if (status === 404 || status === 400) return { kind: 'gone' };
    if (status === 429) {
      const seconds = Number(response?.headers.get('Retry-After'));
      return { kind: 'later', waitMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined };
    }
    return { kind: 'later' };
  } catch {
    return { kind: 'later' };
  }
}

/** Where a link's icon or preview image is shown from: the backend's origin, kept by the service worker. */
export function linkPictureUrl(link: { id: string; previewed_at?: string | null }, kind: 'icon' | 'image'): string {
  const version = link.previewed_at ? `&v=${encodeURIComponent(link.previewed_at)}` : '';
  return `${backendUrl.replace(/\/$/, '')}/functions/v1/link-image?link=${link.id}&kind=${kind}${version}`;
}
