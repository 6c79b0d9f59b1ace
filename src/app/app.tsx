import { lazy, Suspense } from 'react';
import { BrowserRouter, useRoutes } from 'react-router-dom';
import { Toaster } from '../ui/toaster.tsx';
import { routes } from './routes.tsx';
import { UpdatePrompt } from './update-prompt.tsx';

const CookieBanner = lazy(async () => ({ default: (await import('../features/marketing/cookie-banner.tsx')).CookieBanner }));

function Routes() {
  return useRoutes(routes);
}

export function App() {
  return (
    <BrowserRouter>
      <Routes />
      <Suspense fallback={null}>
        <CookieBanner />
      </Suspense>
      <UpdatePrompt />
      <Toaster />
    </BrowserRouter>
  );
}
