/**
 * check-links: one round of the broken-link check (docs/architecture.md, Broken links). Claims up to
 * 200 links of Pro and Team users due for their weekly check (claim_link_checks), checks them at
 * most 2 at a time per host (_shared/link-check.ts) and records what changed (finish_link_checks:
 * a link newly gone is marked, a fixed one cleared). Answers {checked, broken, changed}. A
 * scheduler calls it: hosted, pg_cron with pg_net every 10 minutes (docs/deploy.md); on the local
 * stack its own timer (supabase/local/link-check-scheduler.ts). POST with the service-role key;
 * anything else is 401. A body `{"owner": "<user id>"}` checks only that owner's links that are due
 * (an operator's "check this account now"); otherwise every owner's.
 */
import { serverClient } from '../_shared/client.ts';
import { jsonResponder } from '../_shared/http.ts';
import { checkLink, checkLinks } from '../_shared/link-check.ts';
import { previewFetchAllow } from '../_shared/preview-allow.ts';
import { checkInput, readJson } from '../_shared/input.ts';
import { serveOnDeno } from '../_shared/serve.ts';
import type { FunctionEnv } from '../_shared/types.ts';
import { sameSecret } from '../deliver-mail/auth.ts';
import { checkLinksInput } from '../../../src/domain/function-inputs.ts';

// Called by schedulers, never by a page: no CORS headers.
const json = jsonResponder({});

/** Links claimed per round. */
export const ROUND_SIZE = 200;

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method !== 'POST')
    return json({ error: 'Method not allowed: check-links takes POST' }, 405, { Allow: 'POST' });
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get('Authorization') ?? '')?.[1];
  if (!bearer || !env.SUPABASE_SERVICE_ROLE_KEY || !(await sameSecret(bearer, env.SUPABASE_SERVICE_ROLE_KEY))) {
    return json({ error: 'Unauthorized: send the service-role key' }, 401);
  }
  // A scheduler may send no body at all: that is every owner's round.
  const input =
    req.headers.get('content-length') === '0' || !req.body
      ? checkInput(checkLinksInput, {})
      : await readJson(req, checkLinksInput);
  if (!input.ok) return json({ error: input.error }, 400);
  const client = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, env.fetch);
  const claimed = await client.rpc('claim_link_checks', { p_limit: ROUND_SIZE, p_owner: input.value.owner ?? null });
  if (claimed.error) {
    console.error('[check-links] claim_link_checks failed:', claimed.error);
    return json({ error: 'The links could not be claimed; see the function log' }, 502);
  }
  const links = claimed.data as { id: string; url: string }[];
  const allow = previewFetchAllow((name) => env[name as keyof FunctionEnv] as string);
  const outcomes = await checkLinks(links, (url) => checkLink(url, { allow }));
  const known = outcomes.filter(({ outcome }) => outcome !== 'unknown');
  const finished = await client.rpc('finish_link_checks', {
    p_results: known.map(({ link, outcome }) => ({ id: link.id, url: link.url, broken: outcome === 'broken' })),
  });
  if (finished.error) {
    console.error('[check-links] finish_link_checks failed:', finished.error);
    return json({ error: 'The results could not be recorded; see the function log' }, 502);
  }
  return json({
    checked: links.length,
    broken: known.filter(({ outcome }) => outcome === 'broken').length,
    changed: finished.data as number,
  });
}

serveOnDeno(handler);
