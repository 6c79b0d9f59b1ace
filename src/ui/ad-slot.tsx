import { useSyncExternalStore } from 'react';
import { onConsentChange, readConsent } from './cookie-consent.ts';

/** Whether the stored choice allows personalised ads (docs/product.md, Plans and limits: off unless the record says ads true). */
function usePersonalisedAds(): boolean {
  return useSyncExternalStore(
    onConsentChange,
    () => readConsent()?.ads === true,
    () => false,
  );
}

/**
 * The ad slot Free users see (docs/product.md, Dashboard; Polls, docs/product.md, Decisions): a placeholder, no ad network is
 * loaded. Only Free screens render it. 'banner' is the dashboard's wide strip, 'rectangle' the
 * board's medium rectangle. Whether an ad would be personalised follows lb_cookie_consent, and
 * changes as soon as the choice does (in this tab or another).
 */
export function AdSlot({ shape }: { shape: 'banner' | 'rectangle' }) {
  const personalised = usePersonalisedAds();
  const size = shape === 'banner' ? 'h-24' : 'mx-auto h-[15.625rem] w-full max-w-[18.75rem] self-start lg:mx-0';
  return (
    <aside
      aria-label="Advertisement"
      data-ad-personalised={personalised ? 'true' : 'false'}
      className={`flex flex-col items-center justify-center gap-1 rounded-2xl border border-dashed border-slate-300 bg-slate-50 text-xs tracking-wide text-slate-600 ${size}`}
    >
      <span className="uppercase">Advertisement</span>
      <span>{personalised ? 'Personalised ads' : 'Non-personalised ads'}</span>
    </aside>
  );
}
