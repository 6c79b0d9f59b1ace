import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { afterNextPaint } from '../../timing/after-next-paint.ts';

export interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  /** Height of the scrolling viewport in pixels. */
  height: number;
  overscan?: number;
  /**
   * The mounted rows' content, as one flat list of keyed, absolutely positioned children (each
   * at its row's `start`): keyed by what they show, an item moved to another row (a new link
   * at the top) keeps its element instead of being mounted again. `late`: rows not at hand have
   * been waited for PLACEHOLDER_AFTER_MS, show their placeholders (before that, nothing).
   */
  renderRows(rows: readonly VirtualRow[], late: boolean): ReactNode;
  /** Whether the content of rows [first, end) is at hand (by default, always). */
  ready?(first: number, end: number): boolean;
  label: string;
  /** The rows mounted (in view plus overscan) changed: [start, end). */
  onRange?(start: number, end: number): void;
}

/**
 * How long rows scrolled to wait for their content before placeholders show: a read answering
 * sooner shows the rows with no placeholder pass before them (two renders, and a frame's style,
 * layout and paint, more on the way to the rows), the stretch blank meanwhile.
 */
export const PLACEHOLDER_AFTER_MS = 50;

/** A mounted row: its index and its top in pixels. */
export interface VirtualRow {
  index: number;
  start: number;
}

/** The rows to mount, [first, end), for a viewport scrolled to `top`. */
export function windowAt(
  top: number,
  { count, rowHeight, height, overscan }: { count: number; rowHeight: number; height: number; overscan: number },
): { first: number; end: number } {
  const inView = Math.max(0, Math.floor(top / rowHeight));
  const first = Math.min(Math.max(0, count - 1), Math.max(0, inView - overscan));
  const end = Math.min(count, Math.ceil((top + height) / rowHeight) + overscan);
  return { first, end: Math.max(first, end) };
}

/**
 * A fixed-row-height window: only the rows in view, plus overscan, are mounted. Every row has
 * the same height, so the window is arithmetic on the scroll offset: nothing here costs more
 * with more rows (a list library measuring each row rebuilt a table of all 50,000 of them when
 * one link was added, on the path between the click and the paint). A scroll re-renders only
 * when the first row in view changes, and synchronously: rows at hand show in the scroll's own
 * frame, others once read (or their placeholders, after PLACEHOLDER_AFTER_MS at one place).
 */
export function VirtualRows(props: VirtualRowsProps) {
  const { count, rowHeight, height, overscan = 6, renderRows, ready, label, onRange } = props;
  const viewport = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  // A far scroll's own frame mounts only the rows in view; their overscan is mounted after that
  // frame is painted (null: the whole window).
  const [lean, setLean] = useState<{ first: number; end: number } | null>(null);
  // The offset whose rows have waited long enough for placeholders.
  const [lateAt, setLateAt] = useState<number | null>(null);
  // What a scroll needs of the latest render, without subscribing again on each.
  const latest = useRef({ count, height, overscan, onRange, top, mounted: { first: 0, end: 0 } });
  const full = windowAt(top, { count, rowHeight, height, overscan });
  const { first, end } = lean ?? full;
  useLayoutEffect(() => {
    latest.current = { count, height, overscan, onRange, top, mounted: { first, end } };
  });
  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const onScroll = () => {
      // Only a move to another row matters: the rows' positions are fixed inside the scroller.
      const row = Math.floor(element.scrollTop / rowHeight) * rowHeight;
      const { onRange: rangeChanged, top: shownTop, mounted, ...size } = latest.current;
      if (row === shownTop) return;
      const range = windowAt(row, { ...size, rowHeight });
      // A jump past every mounted row mounts the rows in view alone; a shorter move (a wheel's,
      // a drag's) keeps its overscan, a row or two more, ahead of a scroll the compositor runs.
      const jump = range.end <= mounted.first || range.first >= mounted.end;
      const now = jump ? windowAt(row, { ...size, overscan: 0, rowHeight }) : null;
      // The new range is told in the same synchronous render: the caller's read of those rows
      // starts in this scroll's own task, not after a frame (docs/scale.md).
      flushSync(() => {
        setTop(row);
        setLean(now);
        rangeChanged?.(range.first, range.end);
      });
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [rowHeight]);
  useEffect(() => (lean ? afterNextPaint(() => setLean(null)) : undefined), [lean]);
  useEffect(() => onRange?.(full.first, full.end), [onRange, full.first, full.end]);
  const atHand = ready?.(first, end) ?? true;
  useEffect(() => {
    if (atHand) return;
    const timer = setTimeout(() => setLateAt(top), PLACEHOLDER_AFTER_MS);
    return () => clearTimeout(timer);
  }, [atHand, top]);
  const rows: VirtualRow[] = [];
  for (let index = first; index < end; index += 1) rows.push({ index, start: index * rowHeight });
  return (
    <div
      ref={viewport}
      role="region"
      aria-label={label}
      tabIndex={0}
      style={{ height, overflowY: 'auto', position: 'relative' }}
    >
      <div style={{ height: count * rowHeight, position: 'relative' }}>
        {renderRows(rows, !atHand && lateAt === top)}
      </div>
    </div>
  );
}
