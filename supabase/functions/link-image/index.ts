/**
 * link-image: a saved link's icon or preview image, fetched through the guarded fetch
 * (_shared/preview-fetch.ts) and served from the backend's origin, so the app's CSP names one
 * origin for pictures instead of every https site, and the service worker keeps what was seen for
 * offline use (docs/architecture.md, Link previews). GET ?link=<id>&kind=icon|image (&v=<the
 * preview's time>, which only makes a new preview a new address). No token: an <img> sends none;
 * the link's id, a random UUID, names it. Only a picture the preview stored is fetched, never a URL
 * from the request. 404 when the link, its preview or the picture is gone; 429 beyond
 * link_image_allowance.
 */
import { serverClient } from '../_shared/client.ts';
import { clientAddress, gatewayFetch, isThrottled, throttledAnswer } from '../_shared/gateway.ts';
import { corsHeadersFor, jsonResponder } from '../_shared/http.ts';
import { readQuery } from '../_shared/input.ts';
import { previewFetchAllow } from '../_shared/preview-allow.ts';
import { fetchImage } from '../_shared/preview-fetch.ts';
import { serveOnDeno } from '../_shared/serve.ts';
import type { FunctionEnv } from '../_shared/types.ts';
import { linkImageQuery } from '../../../src/domain/function-inputs.ts';

const corsHeaders = corsHeadersFor({ methods: 'GET', exposeHeaders: ['Retry-After'] });
const json = jsonResponder(corsHeaders);

export const NO_PICTURE = 'No picture for this link.';

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'GET') return json({ error: 'Method not allowed' }, 405, { Allow: 'GET, OPTIONS' });
  const query = readQuery(req.url, linkImageQuery);
  if (!query.ok) return json({ error: query.error }, 400);

  const gateway = gatewayFetch(env.fetch, null);
  const service = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, gateway.fetch);
  const source = await service.rpc('link_image_source', {
    p_link: query.value.link,
    p_kind: query.value.kind,
    p_client: clientAddress(req) ?? 'unknown',
  });
  if (isThrottled(source.error, source.status)) {
    const throttled = throttledAnswer(source.error, gateway.retryAfter(), 'Too many link pictures.');
    return json(throttled.body, 429, throttled.headers);
  }
  if (source.error) {
    console.error('[link-image] link_image_source failed:', source.error);
    return json({ error: 'The picture could not be read' }, 502);
  }
  const url = source.data as string | null;
  if (url === null) return json({ error: NO_PICTURE }, 404);
  const image = await fetchImage(url, {
    allow: previewFetchAllow((name) => env[name as keyof FunctionEnv] as string),
  });
  if (!image.ok) return json({ error: NO_PICTURE }, 404);
  return new Response(new Uint8Array(image.body), {
    status: 200,
    headers: {
      ...corsHeaders,
      'Content-Type': image.contentType,
      'Cache-Control': 'public, max-age=604800',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'cross-origin',
    },
  });
}

serveOnDeno(handler);
