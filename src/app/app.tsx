import { lazy, Suspense, useState } from 'react';
import { BrowserRouter, useRoutes } from 'react-router-dom';
import { ScreenBoundary } from '../ui/screen-error-boundary.tsx';
import { useToasts } from '../ui/toast-store.ts';
import { routes } from './routes.tsx';
import { UpdatePrompt } from './update-prompt.tsx';

const CookieBanner = lazy(async () => ({
  default: (await import('../features/marketing/cookie-banner.tsx')).CookieBanner,
}));

// Radix Toast loads with the first toast: visitors who never see one never download it.
const Toaster = lazy(async () => ({ default: (await import('../ui/toaster.tsx')).Toaster }));

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
      <Suspense fallback={null}>
        <CookieBanner />
      </Suspense>
      <UpdatePrompt />
      <Toasts />
    </BrowserRouter>
  );
}
