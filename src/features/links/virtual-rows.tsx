import { useState, type ReactNode, type UIEvent } from 'react';

export interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  /** Height of the scrolling viewport in pixels. */
  height: number;
  overscan?: number;
  renderRow(index: number): ReactNode;
  label: string;
}

/** A fixed-row-height window: only the rows in view (plus overscan) are mounted. */
export function VirtualRows({ count, rowHeight, height, overscan = 6, renderRow, label }: VirtualRowsProps) {
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    rows.push(
      <div key={index} style={{ position: 'absolute', top: index * rowHeight, left: 0, right: 0, height: rowHeight }}>
        {renderRow(index)}
      </div>,
    );
  }
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      style={{ height, overflowY: 'auto', position: 'relative' }}
      onScroll={(e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ height: count * rowHeight, position: 'relative' }}>{rows}</div>
    </div>
  );
}
