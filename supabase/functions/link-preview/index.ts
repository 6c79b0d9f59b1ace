/**
 * link-preview: reads a saved link's page once and fills in what the user left empty
 * (docs/architecture.md, Link previews). POST {link_id, retry?} with the user's bearer token.
 * The caller must be able to edit the link (its directory's owner or an editor); anyone else, and
 * a link that is gone, get 404 'Link not found.'. Asking again after the page was read fetches
 * nothing; two asks at once fetch once (the second answers 202 pending); `retry` asks again for a
 * page that failed. The fetch is the guarded one (_shared/preview-fetch.ts), counted by
 * link_preview_allowance (429 with Retry-After beyond it). The fields land on the row in the
 * database, which pokes the link's devices to pull them. Answers {state: 'done' | 'failed' |
 * 'pending'}.
 */
import { serverClient } from '../_shared/client.ts';
import { gatewayFetch, isThrottled, throttledAnswer } from '../_shared/gateway.ts';
import { readJson } from '../_shared/input.ts';
import { readLinkPreview } from '../_shared/link-preview.ts';
import { previewFetchAllow } from '../_shared/preview-allow.ts';
import { fetchImage, type FetchOptions } from '../_shared/preview-fetch.ts';
import { serveOnDeno } from '../_shared/serve.ts';
import { sessionUser } from '../_shared/session.ts';
import type { FunctionEnv } from '../_shared/types.ts';
import { linkPreviewInput, type LinkPreviewState } from '../../../src/domain/function-inputs.ts';
import { corsHeaders, json } from './http.ts';

export const LINK_NOT_FOUND = 'Link not found.';

interface Claim {
  state: 'missing' | 'done' | 'failed' | 'pending' | 'claimed';
  url?: string;
}

/** The picture at `url` when it is one the app may show (an image of an allowed type and size). */
async function checkedImage(url: string | null, options: FetchOptions): Promise<string | null> {
  if (url === null) return null;
  const image = await fetchImage(url, options);
  return image.ok ? url : null;
}

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405, { Allow: 'POST, OPTIONS' });

  const input = await readJson(req, linkPreviewInput);
  if (!input.ok) return json({ error: input.error }, 400);
  const user = await sessionUser(req, env);
  if (user === null || user === 'invalid') return json({ error: 'Sign in to ask for a preview' }, 401);

  const gateway = gatewayFetch(env.fetch, null);
  const service = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, gateway.fetch);
  const claimed = await service.rpc('link_preview_claim', {
    p_user: user.id,
    p_link: input.value.link_id,
    p_retry: input.value.retry,
  });
  if (isThrottled(claimed.error, claimed.status)) {
    const throttled = throttledAnswer(
      claimed.error,
      gateway.retryAfter(),
      'Too many link previews. Please try again later.',
    );
    return json(throttled.body, 429, throttled.headers);
  }
  if (claimed.error) {
    console.error('[link-preview] link_preview_claim failed:', claimed.error);
    return json({ error: 'The preview could not be asked for' }, 502);
  }
  const claim = claimed.data as Claim;
  if (claim.state === 'missing') return json({ error: LINK_NOT_FOUND }, 404);
  if (claim.state === 'pending') return json({ state: 'pending' satisfies LinkPreviewState }, 202);
  if (claim.state === 'done' || claim.state === 'failed') {
    return json({ state: claim.state satisfies LinkPreviewState }, 200);
  }
  if (claim.url === undefined) return json({ error: 'The preview could not be asked for' }, 502);

  const options: FetchOptions = { allow: previewFetchAllow((name) => env[name as keyof FunctionEnv] as string) };
  const preview = await readLinkPreview(claim.url, options);
  const fields = preview.ok
    ? await Promise.all([
        checkedImage(preview.metadata.icon, options),
        checkedImage(preview.metadata.image, options),
      ]).then(([icon, image]) => ({
        ok: true,
        title: preview.metadata.title,
        description: preview.metadata.description,
        site_name: preview.metadata.siteName,
        icon_url: icon,
        image_url: image,
      }))
    : { ok: false };
  const finished = await service.rpc('link_preview_finish', {
    p_link: input.value.link_id,
    p_url: claim.url,
    p_preview: fields,
  });
  if (finished.error) {
    console.error('[link-preview] link_preview_finish failed:', finished.error);
    return json({ error: 'The preview could not be saved' }, 502);
  }
  const state = finished.data as 'done' | 'failed' | 'stale';
  // 'stale': the link's URL changed or it was deleted while its page was read; the new URL's own ask fills it.
  return json({ state: state === 'stale' ? 'pending' : state });
}

serveOnDeno(handler);
