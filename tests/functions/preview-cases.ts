/**
 * Cases of the preview fetch and the metadata reader that run the same on Node and on Deno
 * (preview-deno.test.ts runs them in both and compares): only the functions' own modules and
 * `node:` built-ins are imported. The fixture servers run in the test's Node process.
 */
import { readFileSync } from 'node:fs';
import { readLinkPreview } from '../../supabase/functions/_shared/link-preview.ts';
import { allowKey } from '../../supabase/functions/_shared/preview-allow.ts';
import { fetchImage, fetchPage, type FetchResult } from '../../supabase/functions/_shared/preview-fetch.ts';

export interface CaseConfig {
  /** The plain fixture's port on 127.0.0.1 (a rebinding target listens on 127.0.0.2, same port). */
  port: number;
  tlsPort: number;
  certPath: string;
}

/** A result without its bytes: their length and their text instead. */
function brief(result: FetchResult) {
  if (!result.ok) return result;
  const { body, ...rest } = result;
  return { ...rest, bytes: body.length, text: new TextDecoder().decode(body.subarray(0, 200)) };
}

export async function runPreviewCases({ port, tlsPort, certPath }: CaseConfig): Promise<Record<string, unknown>> {
  const allow = new Set([allowKey('127.0.0.1', port), allowKey('127.0.0.1', tlsPort)]);
  const options = { resolve: async () => ['127.0.0.1'], allow };
  const site = `http://public.test:${port}`;
  const results: Record<string, unknown> = {};
  for (const url of [
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[::ffff:7f00:1]/',
    'http://169.254.169.254/',
    'http://localhost./',
    `http://127.0.0.1:${port}/`,
  ]) {
    results[`forbidden ${url}`] = await fetchPage(url, { resolve: options.resolve });
  }
  results['private answer'] = await fetchPage(`${site}/page`, {
    allow,
    resolve: async () => ['127.0.0.1', '10.0.0.1'],
  });
  let asked = 0;
  const rebinding = async () => (asked++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']);
  results['rebinding'] = { ...brief(await fetchPage(`${site}/page`, { allow, resolve: rebinding })), asked };
  const twoAllowed = new Set([...allow, allowKey('127.0.0.3', port)]);
  const twoAnswers = async () => ['127.0.0.3', '127.0.0.1'];
  results['second answer'] = brief(await fetchPage(`${site}/page`, { allow: twoAllowed, resolve: twoAnswers })).ok;
  results['redirect to metadata'] = await fetchPage(`${site}/to-metadata`, options);
  results['5 redirects'] = brief(await fetchPage(`${site}/hops/5`, options));
  results['6 redirects'] = await fetchPage(`${site}/hops/6`, options);
  results['endless body'] = await fetchPage(`${site}/endless`, options);
  results['slow body'] = await fetchPage(`${site}/slow-body`, { ...options, timeoutMs: 300 });
  results['gzip'] = brief(await fetchPage(`${site}/gzip`, options));
  results['brotli'] = brief(await fetchPage(`${site}/brotli`, options));
  results['cookie'] = brief(await fetchPage(`${site}/with-cookie`, options));
  results['not html'] = await fetchPage(`${site}/json`, options);
  results['png'] = brief(await fetchImage(`${site}/icon.png`, options)).ok;
  results['svg'] = await fetchImage(`${site}/image.svg`, options);
  const tls = { ...options, ca: readFileSync(certPath, 'utf8') };
  results['tls, right name'] = brief(await fetchPage(`https://preview.test:${tlsPort}/page`, tls)).ok;
  results['tls, wrong name'] = await fetchPage(`https://other.test:${tlsPort}/page`, tls);
  for (const page of ['news-article', 'windows-1252', 'shift-jis', 'entities-cdata']) {
    results[`metadata ${page}`] = await readLinkPreview(`${site}/pages/${page}`, options);
  }
  return results;
}
