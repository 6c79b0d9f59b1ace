import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { LinkSlice } from '../../data/queries/link-window.ts';
import type { LinkRow } from '../../data/rows.ts';
import { LinkCard } from './link-card.tsx';
import type { LinkItemProps } from './link-item-props.ts';
import { LIST_COLUMNS, LinkRowItem } from './link-row.tsx';
import { VirtualRows, type VirtualRow } from './virtual-rows.tsx';

/** Above this many links the list and grid are windowed. */
export const VIRTUALIZE_ABOVE = 60;
const ROW_HEIGHT = 56;
const CARD_ROW_HEIGHT = 196;
/**
 * Card rows mounted beyond the view on each side: a far scroll mounts the view and these (3
 * columns each), so each one costs every jump, in the scroll's own frame once the directory's
 * links are held (held-directory.ts); the window read covers a page beyond anyway.
 */
const GRID_OVERSCAN = 1;

export interface LinkCollectionProps extends Omit<LinkItemProps, 'link'> {
  /** The list's length and the rows read so far (a window of it, or all of it). */
  links: LinkSlice;
  view: 'grid' | 'list';
  /** The directory's links are held in memory (shown as data-links="held": the bench waits for it). */
  held?: boolean;
  /** The range of links in view changed (the caller reads that window). */
  onRange?(start: number, end: number): void;
}

/** Columns of the grid for its width (Tailwind's sm / lg breakpoints). */
function useColumns() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1024);
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return { ref, columns: width >= 900 ? 3 : width >= 560 ? 2 : 1 };
}

function viewportHeight(): number {
  return typeof window === 'undefined' ? 600 : Math.max(320, window.innerHeight - 280);
}

/**
 * A mounted item's place: a transform, not top and left. A new link at the top moves every
 * mounted item one place on; a moved transform is painted again but not laid out again. Each item
 * has a fixed size, so it is contained (`contain: strict`): an item mounted by a scroll is styled,
 * laid out and painted alone, nothing around it again.
 */
const placed = (x: string, y: number) =>
  ({ position: 'absolute', top: 0, left: 0, transform: `translate(${x}, ${y}px)`, contain: 'strict' }) as const;

/**
 * A grid cell's place in its row: columns of equal width with the grid's 1rem gaps, 1rem below
 * (a translation's percentage is of the cell's own width: one column on is 100% and a gap).
 */
function cell(columns: number, column: number, top: number) {
  return {
    ...placed(`calc(${column} * (100% + 1rem))`, top),
    width: `calc((100% - ${columns - 1}rem) / ${columns})`,
    height: CARD_ROW_HEIGHT - 16,
  };
}

/** A link not read yet (scrolled to faster than its window arrived): a placeholder of its size. */
const placeholder = (key: number, height: string): ReactNode => (
  <div key={`pending-${key}`} className={`${height} animate-pulse rounded-2xl bg-slate-100`} aria-hidden="true" />
);

/** Whether a slice holds links [start, end) of its list (those past its end count as held). */
const holds = (slice: LinkSlice, start: number, end: number) =>
  slice.start <= start && slice.start + slice.rows.length >= Math.min(end, slice.total);

export function LinkCollection({ links: slice, view, held, onRange, ...item }: LinkCollectionProps) {
  const source = held ? 'held' : undefined;
  const { ref, columns } = useColumns();
  const windowed = slice.total > VIRTUALIZE_ABOVE;
  const at = (index: number): LinkRow | undefined => slice.rows[index - slice.start];
  const all = slice.start === 0 && slice.rows.length >= slice.total ? slice.rows : null;

  if (view === 'list') {
    const row = (link: LinkRow) => <LinkRowItem key={link.id} link={link} {...item} />;
    const rowsAt = (rows: readonly VirtualRow[], late: boolean) =>
      rows.map(({ index, start }) => {
        const link = at(index);
        if (!link && !late) return null;
        return (
          <div key={link?.id ?? `pending-${index}`} style={{ ...placed('0', start), right: 0, height: ROW_HEIGHT }}>
            {link ? row(link) : placeholder(index, 'h-full')}
          </div>
        );
      });
    return (
      <div
        role="table"
        aria-label="Links"
        data-links={source}
        className="overflow-hidden rounded-2xl border border-slate-200"
      >
        <div
          role="row"
          className={`${LIST_COLUMNS} bg-slate-50 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase`}
        >
          <span role="columnheader">Title</span>
          <span role="columnheader">URL</span>
          <span role="columnheader">Tags</span>
          <span role="columnheader" className="text-right">
            Actions
          </span>
        </div>
        {windowed ? (
          <VirtualRows
            label="Links list"
            count={slice.total}
            rowHeight={ROW_HEIGHT}
            height={viewportHeight()}
            renderRows={rowsAt}
            ready={(first, end) => holds(slice, first, end)}
            onRange={onRange}
          />
        ) : (
          (all ?? slice.rows).map((link) => (
            <div key={link.id} style={{ height: ROW_HEIGHT }}>
              {row(link)}
            </div>
          ))
        )}
      </div>
    );
  }

  const card = (link: LinkRow) => <LinkCard key={link.id} link={link} {...item} />;
  const gridClass = columns === 3 ? 'grid-cols-3' : columns === 2 ? 'grid-cols-2' : 'grid-cols-1';
  return (
    <div ref={ref} data-links={source}>
      {windowed ? (
        <VirtualRows
          label="Links grid"
          count={Math.ceil(slice.total / columns)}
          rowHeight={CARD_ROW_HEIGHT}
          height={viewportHeight()}
          overscan={GRID_OVERSCAN}
          ready={(first, end) => holds(slice, first * columns, end * columns)}
          renderRows={(rows, late) =>
            rows.flatMap(({ index, start }) =>
              Array.from({ length: Math.min(columns, slice.total - index * columns) }, (_, column) => {
                const position = index * columns + column;
                const link = at(position);
                if (!link && !late) return null;
                return (
                  <div key={link?.id ?? `pending-${position}`} style={cell(columns, column, start)}>
                    {link ? card(link) : placeholder(position, 'h-full')}
                  </div>
                );
              }),
            )
          }
          onRange={onRange && ((start, end) => onRange(start * columns, end * columns))}
        />
      ) : (
        <div className={`grid gap-4 ${gridClass}`}>{(all ?? slice.rows).map(card)}</div>
      )}
    </div>
  );
}
