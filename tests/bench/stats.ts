/** The bench's results: samples, their median and p95, the bar, and the table it prints. */

export type Unit = 'ms' | 'KB' | 'MB' | 'score' | 'count' | '%';

export interface Bar {
  /** The median must be at most (or, for 'min', at least) this. */
  median?: number;
  p95?: number;
  p99?: number;
  /** The median over the limit's median must be at most this. */
  ratio?: number;
  direction?: 'max' | 'min';
}

export interface Measure {
  name: string;
  unit: Unit;
  samples: number[];
  bar?: Bar;
  /** The physical limit measured in the same run (raw bulkPut, a bare round trip): its median. */
  limit?: { name: string; median: number };
  note?: string;
  /** A check the measure makes besides its bar, failed: what it found. The measure does not pass. */
  failed?: string;
}

export interface Summary extends Measure {
  n: number;
  median: number;
  p95: number;
  p99: number;
  /** median / limit's median. */
  ratio?: number;
  pass: boolean | null;
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function summarize(measure: Measure): Summary {
  const median = percentile(measure.samples, 50);
  const p95 = percentile(measure.samples, 95);
  const p99 = percentile(measure.samples, 99);
  const ratio = measure.limit && measure.limit.median > 0 ? median / measure.limit.median : undefined;
  let pass: boolean | null = null;
  const bar = measure.bar;
  if (bar && measure.samples.length === 0) pass = false;
  else if (bar) {
    const min = bar.direction === 'min';
    const ok = (value: number, limit: number | undefined) =>
      limit === undefined || (min ? value >= limit : value <= limit);
    pass =
      ok(median, bar.median) &&
      ok(p95, bar.p95) &&
      ok(p99, bar.p99) &&
      (bar.ratio === undefined || (ratio ?? Infinity) <= bar.ratio);
  }
  if (measure.failed) pass = false;
  return { ...measure, n: measure.samples.length, median, p95, p99, ratio, pass };
}

function format(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return '—';
  switch (unit) {
    case 'ms':
      return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(value < 10 ? 1 : 0)} ms`;
    case 'KB':
      return `${value.toFixed(1)} KB`;
    case 'MB':
      return `${value.toFixed(1)} MB`;
    case '%':
      return `${value.toFixed(1)} %`;
    default:
      return value.toFixed(0);
  }
}

function barText(summary: Summary): string {
  const { bar, unit } = summary;
  if (!bar) return '—';
  const sign = bar.direction === 'min' ? '≥' : '≤';
  const parts: string[] = [];
  if (bar.median !== undefined) parts.push(`${sign} ${format(bar.median, unit)}`);
  if (bar.p95 !== undefined) parts.push(`p95 ${sign} ${format(bar.p95, unit)}`);
  if (bar.p99 !== undefined) parts.push(`p99 ${sign} ${format(bar.p99, unit)}`);
  if (bar.ratio !== undefined) parts.push(`≤ ${bar.ratio}× ${summary.limit?.name ?? 'limit'}`);
  return parts.join(', ');
}

/** The table printed at the end of a run. */
export function table(summaries: Summary[]): string {
  const rows = [
    ['measure', 'n', 'median', 'p95', 'bar', 'ratio to limit', 'pass'],
    ...summaries.map((s) => [
      s.name,
      String(s.n),
      format(s.median, s.unit),
      s.n > 1 ? format(s.p95, s.unit) : '',
      barText(s),
      s.ratio === undefined ? '' : `${s.ratio.toFixed(2)}× ${s.limit?.name ?? ''}`,
      s.pass === null ? 'report' : s.pass ? 'pass' : 'FAIL',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join(' │ ');
  const rule = widths.map((width) => '─'.repeat(width)).join('─┼─');
  const notes = summaries
    .filter((s) => s.note || s.failed)
    .map((s) => `  ${s.name}: ${[s.note, s.failed && `FAILED: ${s.failed}`].filter(Boolean).join('; ')}`);
  return [line(rows[0]!), rule, ...rows.slice(1).map(line), '', 'notes:', ...notes].join('\n');
}
