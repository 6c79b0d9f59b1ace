import { lazy, Suspense } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { Toaster } from '../ui/toaster.tsx';
import { routes } from './routes.tsx';
import { UpdatePrompt } from './update-prompt.tsx';

const router = createBrowserRouter(routes);
const CookieBanner = lazy(async () => ({ default: (await import('../features/marketing/cookie-banner.tsx')).CookieBanner }));

export function App() {
  return (
    <>
      <RouterProvider router={router} />
      <Suspense fallback={null}>
        <CookieBanner />
      </Suspense>
      <UpdatePrompt />
      <Toaster />
    </>
  );
}
