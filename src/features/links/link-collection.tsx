import { useEffect, useRef, useState } from 'react';
import type { LinkRow } from '../../data/rows.ts';
import { LinkCard } from './link-card.tsx';
import type { LinkItemProps } from './link-item-props.ts';
import { LIST_COLUMNS, LinkRowItem } from './link-row.tsx';
import { VirtualRows } from './virtual-rows.tsx';

/** Above this many links the list and grid are windowed (issue 4, point 7). */
export const VIRTUALIZE_ABOVE = 60;
const ROW_HEIGHT = 56;
const CARD_ROW_HEIGHT = 196;

export interface LinkCollectionProps extends Omit<LinkItemProps, 'link'> {
  links: LinkRow[];
  view: 'grid' | 'list';
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

export function LinkCollection({ links, view, ...item }: LinkCollectionProps) {
  const { ref, columns } = useColumns();
  const windowed = links.length > VIRTUALIZE_ABOVE;

  if (view === 'list') {
    const row = (link: LinkRow) => <LinkRowItem key={link.id} link={link} {...item} />;
    return (
      <div role="table" aria-label="Links" className="overflow-hidden rounded-2xl border border-slate-200">
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
            count={links.length}
            rowHeight={ROW_HEIGHT}
            height={viewportHeight()}
            renderRow={(index) => row(links[index]!)}
          />
        ) : (
          links.map((link) => (
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
    <div ref={ref}>
      {windowed ? (
        <VirtualRows
          label="Links grid"
          count={Math.ceil(links.length / columns)}
          rowHeight={CARD_ROW_HEIGHT}
          height={viewportHeight()}
          renderRow={(index) => (
            <div className={`grid h-full gap-4 pb-4 ${gridClass}`}>
              {links.slice(index * columns, index * columns + columns).map(card)}
            </div>
          )}
        />
      ) : (
        <div className={`grid gap-4 ${gridClass}`}>{links.map(card)}</div>
      )}
    </div>
  );
}
