import { useEffect, useRef, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

export interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  /** Height of the scrolling viewport in pixels. */
  height: number;
  overscan?: number;
  /**
   * The mounted rows' content, as one flat list of keyed, absolutely positioned children (each
   * at its row's `start`): keyed by what they show, an item moved to another row (a new link
   * at the top) keeps its element instead of being mounted again.
   */
  renderRows(rows: readonly VirtualRow[]): ReactNode;
  label: string;
  /** The rows mounted (in view plus overscan) changed: [start, end). */
  onRange?(start: number, end: number): void;
}

/** A mounted row: its index and its top in pixels. */
export interface VirtualRow {
  index: number;
  start: number;
}

/**
 * A fixed-row-height window (@tanstack/react-virtual): only the rows in view, plus overscan,
 * are mounted; the viewport's size is observed, and scrolling re-renders only the window.
 */
export function VirtualRows({ count, rowHeight, height, overscan = 6, renderRows, label, onRange }: VirtualRowsProps) {
  const viewport = useRef<HTMLDivElement>(null);
  // TanStack Virtual hands back functions the React Compiler cannot memoize; this component
  // is small and left unmemoized, as the rule's own advice says.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => viewport.current,
    estimateSize: () => rowHeight,
    overscan,
    // Before the first measurement (and where nothing can be measured): the height we set.
    initialRect: { width: 0, height },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const end = (items[items.length - 1]?.index ?? -1) + 1;
  useEffect(() => onRange?.(first, end), [onRange, first, end]);
  return (
    <div
      ref={viewport}
      role="region"
      aria-label={label}
      tabIndex={0}
      style={{ height, overflowY: 'auto', position: 'relative' }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {renderRows(items.map(({ index, start }) => ({ index, start })))}
      </div>
    </div>
  );
}
