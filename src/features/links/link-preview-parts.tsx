/**
 * What the server read of a link's page, on its card and row (docs/product.md, Link previews): the
 * site's icon, the preview image, and for a page that could not be read a quiet 'No preview' with
 * Retry. The pictures come through the backend (link-image), which the service worker keeps, so a
 * picture seen once shows offline; one that fails to load is simply not shown.
 */
import { useState } from 'react';
import { linkPictureUrl } from '../../backend/link-preview.ts';
import { askForPreviews } from '../../data/preview-asks.ts';
import type { LinkRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';

const PICTURES = {
  icon: { width: 16, height: 16, className: 'mr-1.5 inline-block h-4 w-4 shrink-0 rounded-sm align-[-2px]' },
  image: { width: 80, height: 60, className: 'h-[60px] w-[80px] shrink-0 rounded-lg bg-slate-100 object-cover' },
} as const;

/** One of the link's pictures at a fixed size (no layout shift); nothing when it has none or it does not load. */
function LinkPicture({ link, kind }: { link: LinkRow; kind: 'icon' | 'image' }) {
  const [broken, setBroken] = useState(false);
  if (!(kind === 'icon' ? link.icon_url : link.image_url) || broken) return null;
  const { width, height, className } = PICTURES[kind];
  return (
    <img
      src={linkPictureUrl(link, kind)}
      alt=""
      width={width}
      height={height}
      loading="lazy"
      decoding="async"
      crossOrigin="anonymous"
      className={className}
      onError={() => setBroken(true)}
      data-testid={`link-${kind}`}
    />
  );
}

/** The site's icon, 16 px, before the title. */
export const LinkIcon = ({ link }: { link: LinkRow }) => <LinkPicture link={link} kind="icon" />;

/** The page's preview image, an 80 × 60 thumbnail on the card. */
export const LinkImage = ({ link }: { link: LinkRow }) => <LinkPicture link={link} kind="image" />;

/** 'No preview' and Retry for a page the server could not read; Retry only for who may edit the link. */
export function NoPreview({ link, canEdit }: { link: LinkRow; canEdit: boolean }) {
  if (link.preview_state !== 'failed') return null;
  return (
    <span className="ml-2 shrink-0 text-xs text-slate-500">
      No preview
      {canEdit && <RetryPreview id={link.id} />}
    </span>
  );
}

function RetryPreview({ id }: { id: string }) {
  const { db } = useUserDb();
  const [asked, setAsked] = useState(false);
  return (
    <button
      type="button"
      className="ml-1 font-medium text-brand-700 dark:text-brand-300 hover:underline disabled:opacity-50"
      disabled={asked}
      onClick={() => {
        setAsked(true);
        void askForPreviews(db, [id], true).catch(() => setAsked(false));
      }}
    >
      Retry
    </button>
  );
}
