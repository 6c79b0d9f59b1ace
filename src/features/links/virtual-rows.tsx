import { useEffect, useRef, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

export interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  /** Height of the scrolling viewport in pixels. */
  height: number;
  overscan?: number;
  renderRow(index: number): ReactNode;
  label: string;
  /** The rows mounted (in view plus overscan) changed: [start, end). */
  onRange?(start: number, end: number): void;
}

/**
 * A fixed-row-height window (@tanstack/react-virtual): only the rows in view, plus overscan,
 * are mounted; the viewport's size is observed, and scrolling re-renders only the window.
 */
export function VirtualRows({ count, rowHeight, height, overscan = 6, renderRow, label, onRange }: VirtualRowsProps) {
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
        {items.map((row) => (
          <div key={row.key} style={{ position: 'absolute', top: row.start, left: 0, right: 0, height: rowHeight }}>
            {renderRow(row.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
