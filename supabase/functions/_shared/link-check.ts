/**
 * The broken-link check (docs/architecture.md, Broken links): whether a saved link's page is still
 * there, through the guarded fetch (preview-fetch.ts: the same address rules, caps and time), with
 * no body read. HEAD first; GET when the server refuses HEAD (405, 501, or another 4xx than 404
 * and 410: many servers answer HEAD wrongly). 'broken' is a 404 or 410 answer, or a host name that
 * no longer resolves; 'ok' any 2xx or 3xx answer; anything else (a timeout, a 5xx, a refused
 * address, a refused connection) is 'unknown' and changes no mark.
 */
import { checkPage, type FetchOptions, type FetchResult } from './preview-fetch.ts';

export type CheckOutcome = 'ok' | 'broken' | 'unknown';

const GONE = new Set([404, 410]);

function statusOf(answer: FetchResult): number | null {
  return !answer.ok && answer.reason === 'http_status' ? (answer.status ?? null) : null;
}

function judge(answer: FetchResult): CheckOutcome {
  if (!answer.ok && answer.reason === 'dns') return 'broken';
  const status = statusOf(answer);
  if (status === null) return 'unknown';
  if (GONE.has(status)) return 'broken';
  return status >= 200 && status < 400 ? 'ok' : 'unknown';
}

export async function checkLink(url: string, options: FetchOptions = {}): Promise<CheckOutcome> {
  const head = await checkPage(url, 'HEAD', options);
  const status = statusOf(head);
  const refused = status !== null && status >= 400 && status < 600 && !GONE.has(status) && status !== 500;
  return judge(refused ? await checkPage(url, 'GET', options) : head);
}

/** At most this many requests to one host at a time, and in all. */
export const PER_HOST = 2;
export const AT_ONCE = 16;

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
};

/**
 * Checks every link, at most `perHost` requests to one host and `atOnce` in all at any time, in
 * the order given except where a host is busy. Answers each link's outcome.
 */
export async function checkLinks<L extends { id: string; url: string }>(
  links: readonly L[],
  check: (url: string) => Promise<CheckOutcome> = (url) => checkLink(url),
  { perHost = PER_HOST, atOnce = AT_ONCE }: { perHost?: number; atOnce?: number } = {},
): Promise<{ link: L; outcome: CheckOutcome }[]> {
  const waiting = [...links];
  const busy = new Map<string, number>();
  const results: { link: L; outcome: CheckOutcome }[] = [];
  let running = 0;
  return new Promise((resolve) => {
    const next = () => {
      if (waiting.length === 0 && running === 0) return resolve(results);
      for (let i = 0; i < waiting.length && running < atOnce;) {
        const link = waiting[i]!;
        const host = hostOf(link.url);
        if ((busy.get(host) ?? 0) >= perHost) {
          i += 1;
          continue;
        }
        waiting.splice(i, 1);
        busy.set(host, (busy.get(host) ?? 0) + 1);
        running += 1;
        void check(link.url)
          .catch((): CheckOutcome => 'unknown')
          .then((outcome) => {
            results.push({ link, outcome });
            busy.set(host, (busy.get(host) ?? 1) - 1);
            running -= 1;
            next();
          });
      }
    };
    next();
  });
}
