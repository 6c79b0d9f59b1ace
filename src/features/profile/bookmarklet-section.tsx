import { useEffect, useRef, type MouseEvent } from 'react';
import { bookmarkletHref } from './bookmarklet.ts';

const card = 'max-w-xl rounded-2xl bg-surface p-6 shadow-sm ring-1 ring-slate-200';

/**
 * Profile's 'Save to Linkboard' (docs/product.md, Browser extension and bookmarklet): a link to
 * drag to the bookmarks bar. React 19 refuses a `javascript:` href (it renders one that throws),
 * so the attribute is set on the element after it renders. A click here does nothing: the app's
 * Content-Security-Policy runs no inline script, and the page to save is another one.
 */
export function BookmarkletSection({ origin }: { origin: string }) {
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    link.current?.setAttribute('href', bookmarkletHref(origin));
  }, [origin]);
  return (
    <section aria-labelledby="save-to-linkboard" className={`mt-6 ${card}`}>
      <h2 id="save-to-linkboard" className="text-lg font-semibold">
        Save to Linkboard
      </h2>
      <p className="mt-2 text-sm text-slate-600">Drag it to the bookmarks bar.</p>
      <a
        ref={link}
        draggable
        onClick={(e: MouseEvent) => e.preventDefault()}
        className="mt-3 inline-block cursor-grab rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white"
      >
        Save to Linkboard
      </a>
    </section>
  );
}
