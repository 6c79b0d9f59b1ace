import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../ui/button.tsx';
import { onConsentChange, readConsent, writeConsent, type ConsentChoice } from '../../ui/cookie-consent.ts';

function needsChoice(): boolean {
  return readConsent() === null;
}

/**
 * The cookie-consent banner (spec 2.14): shown while no choice is stored; either button
 * stores the choice and hides it. Render it inside the router (it links to /Privacy).
 */
export function CookieBanner() {
  const [open, setOpen] = useState(needsChoice);

  useEffect(() => onConsentChange(() => setOpen(needsChoice())), []);

  if (!open) return null;

  const choose = (choice: ConsentChoice) => {
    writeConsent(choice);
    setOpen(false);
  };

  return (
    <div
      role="region"
      aria-label="Cookie consent"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white p-4 shadow-lg sm:inset-x-auto sm:right-4 sm:bottom-4 sm:max-w-md sm:rounded-xl sm:border"
    >
      <div className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">
          Linkboard uses essential cookies and local storage to keep you signed in and remember your settings. With your
          permission we may also personalise ads and measure usage. Read our{' '}
          <Link to="/Privacy" className="font-medium text-brand-700 underline underline-offset-2">
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
