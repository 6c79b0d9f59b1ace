/**
 * Reads a Chrome trace (tests/bench/boot-explore.ts BOOT_TRACE) and prints the renderer main
 * thread's long tasks, script evaluations, and the screenshots' times, from navigation start.
 * Usage: tsx tests/bench/trace-summary.ts trace.json [screenshot-dir]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: Record<string, unknown> & { data?: Record<string, unknown>; snapshot?: string; name?: string };
}

const [file, shots] = process.argv.slice(2);
const { traceEvents } = JSON.parse(readFileSync(file!, 'utf8')) as { traceEvents: TraceEvent[] };
const threadNames = new Map<string, string>();
for (const e of traceEvents)
  if (e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, String(e.args?.name ?? ''));
// The app's document (the tab's about:blank has one too).
const navStart = traceEvents.find(
  (e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').startsWith('http'),
);
const t0 = navStart?.ts ?? Math.min(...traceEvents.filter((e) => e.ts > 0).map((e) => e.ts));
const ms = (ts: number) => ((ts - t0) / 1000).toFixed(1);
const rendererMain = navStart ? `${navStart.pid}:${navStart.tid}` : '';
console.log(`navigationStart pid:tid ${rendererMain}`);

const interesting = new Set([
  'EvaluateScript',
  'v8.compile',
  'v8.compileModule',
  'v8.evaluateModule',
  'ParseHTML',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'Layout',
  'UpdateLayoutTree',
  'Paint',
  'Commit',
  'RunMicrotasks',
  'EventDispatch',
  'v8.run',
  'ParseAuthorStyleSheet',
  'ResourceSendRequest',
  'ResourceFinish',
  'ResourceReceiveResponse',
  'MarkFirstPaint',
  'firstContentfulPaint',
  'largestContentfulPaint::Candidate',
]);
const rows = traceEvents
  .filter((e) => e.ts >= t0 && (e.ph === 'X' || e.ph === 'I' || e.ph === 'R' || e.ph === 'i'))
  .filter(
    (e) => `${e.pid}:${e.tid}` === rendererMain || e.name.includes('ServiceWorker') || e.cat.includes('ServiceWorker'),
  )
  .filter((e) => interesting.has(e.name) || (e.dur ?? 0) > 3000 || e.cat.includes('ServiceWorker'))
  .filter((e) => e.ts - t0 < 2_000_000)
  .sort((a, b) => a.ts - b.ts);
for (const e of rows) {
  const data = e.args?.data ?? {};
  const what = String(data.url ?? data.functionName ?? data.type ?? data.name ?? '')
    .split('/')
    .pop();
  const dur = e.dur ? ` ${(e.dur / 1000).toFixed(1)}ms` : '';
  const thread = `${e.pid}:${e.tid}` === rendererMain ? '' : ` [${threadNames.get(`${e.pid}:${e.tid}`) ?? e.tid}]`;
  if (
    (e.dur ?? 0) < 1000 &&
    e.ph === 'X' &&
    !['EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'ResourceSendRequest'].includes(e.name)
  )
    continue;
  console.log(`${ms(e.ts).padStart(8)} ${e.name}${dur} ${what}${thread}`);
}
const screenshots = traceEvents.filter((e) => e.name === 'Screenshot' && e.ts >= t0).sort((a, b) => a.ts - b.ts);
console.log(`screenshots: ${screenshots.map((s) => ms(s.ts)).join(', ')}`);
if (shots) {
  mkdirSync(shots, { recursive: true });
  for (const s of screenshots) {
    const data = s.args?.snapshot;
    if (data) writeFileSync(join(shots, `${ms(s.ts).padStart(7, '0')}.jpg`), Buffer.from(data, 'base64'));
  }
}
