import { lazy, Suspense } from 'react';
import { BrowserRouter, useRoutes } from 'react-router-dom';
import { ScreenBoundary } from '../ui/screen-error-boundary.tsx';
import { Toaster } from '../ui/toaster.tsx';
import { routes } from './routes.tsx';
import { UpdatePrompt } from './update-prompt.tsx';

const CookieBanner = lazy(async () => ({
  default: (await import('../features/marketing/cookie-banner.tsx')).CookieBanner,
}));

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
      <Toaster />
    </BrowserRouter>
  );
}
