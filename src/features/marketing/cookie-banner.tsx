import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../ui/button.tsx';
import { onConsentChange, readConsent, writeConsent, type ConsentChoice } from '../../ui/cookie-consent.ts';

function needsChoice(): boolean {
  return readConsent() === null;
}

/** The CSS variable that reserves the banner's room (src/index.css): the page, toasts and prompts end above it. */
export const BANNER_SPACE = '--cookie-banner-space';

/**
 * Keeps `--cookie-banner-space` at the height the banner takes from the bottom of the window
 * (its height, plus its margin on wider screens), so nothing is left under it.
 */
function useReservedSpace(banner: RefObject<HTMLElement | null>, open: boolean) {
  useLayoutEffect(() => {
    const element = banner.current;
    if (!open || !element) return;
    const root = document.documentElement.style;
    const measure = () => {
      const space = Math.max(0, Math.ceil(window.innerHeight - element.getBoundingClientRect().top));
      root.setProperty(BANNER_SPACE, `${space}px`);
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
      root.removeProperty(BANNER_SPACE);
    };
  }, [banner, open]);
}

/**
 * The cookie-consent banner (docs/product.md, Public pages): shown while no choice is stored; either button
 * stores the choice and hides it. Render it inside the router (it links to /Privacy). It sits
 * below dialogs and toasts (the banner layer, src/index.css) and covers no content.
 */
export function CookieBanner() {
  const [open, setOpen] = useState(needsChoice);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => onConsentChange(() => setOpen(needsChoice())), []);
  useReservedSpace(ref, open);

  if (!open) return null;

  const choose = (choice: ConsentChoice) => {
    writeConsent(choice);
    setOpen(false);
  };

  return (
    <div
      ref={ref}
      role="region"
      aria-label="Cookie consent"
      className="fixed inset-x-0 bottom-0 z-banner border-t border-slate-200 bg-surface p-4 shadow-lg sm:inset-x-auto sm:right-4 sm:bottom-4 sm:max-w-md sm:rounded-xl sm:border"
    >
      <div className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">
          Linkboard uses essential cookies and local storage to keep you signed in and remember your settings. With your
          permission we may also personalise ads and measure usage. Read our{' '}
          <Link to="/Privacy" className="font-medium text-brand-700 dark:text-brand-300 underline underline-offset-2">
            Privacy policy
          </Link>
          .
        </p>
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" onClick={() => choose({ ads: false, analytics: false })}>
            Essential only
          </Button>
          <Button onClick={() => choose({ ads: true, analytics: true })}>Accept all</Button>
        </div>
      </div>
    </div>
  );
}
