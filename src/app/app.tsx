import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { BrowserRouter, useRoutes } from 'react-router-dom';
import { onConsentChange, readConsent } from '../ui/cookie-consent.ts';
import { ScreenBoundary } from '../ui/screen-error-boundary.tsx';
import { PlainToasts } from '../ui/plain-toasts.tsx';
import { useToasts } from '../ui/toast-store.ts';
import { loadToaster } from '../ui/toaster-loader.ts';
import { preloadable } from '../ui/preloadable.ts';
import { routes } from './routes.tsx';
import { UpdatePrompt } from './update-prompt.tsx';

const CookieBanner = preloadable<object, typeof import('../features/marketing/cookie-banner.tsx')>(
  () => import('../features/marketing/cookie-banner.tsx'),
  'CookieBanner',
);

const noChoice = () => readConsent() === null;

/**
 * The cookie banner's chunk, loaded only while no choice is stored. main.tsx loads it with the
 * screen's chunks, so the banner is part of the first paint rather than a late one.
 */
export function preloadCookieBanner(): Promise<unknown> | undefined {
  return noChoice() ? CookieBanner.preload() : undefined;
}

/** The banner while no choice is stored (also when the choice is cleared to be made again). */
function CookieConsent() {
  const needed = useSyncExternalStore(onConsentChange, noChoice, () => false);
  const [wanted, setWanted] = useState(needed);
  if (needed && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <CookieBanner />
    </Suspense>
  );
}

// Radix Toast loads with the first toast: visitors who never see one never download it. Where
// its chunk cannot load (offline, no service worker serving it), the notices still show, plainly.
const Toaster = lazy(async () => ({
  default: await loadToaster().then(
    (loaded) => loaded.Toaster,
    () => PlainToasts,
  ),
}));

function Toasts() {
  const any = useToasts((state) => state.toasts.length > 0);
  const [wanted, setWanted] = useState(false);
  if (any && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

function Routes() {
  return useRoutes(routes);
}

export function App() {
  return (
    <BrowserRouter>
      <ScreenBoundary>
        <Routes />
      </ScreenBoundary>
      <CookieConsent />
      <UpdatePrompt />
      <Toasts />
    </BrowserRouter>
  );
}
