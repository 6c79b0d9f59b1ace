import { Link } from 'react-router-dom';
import { usePageTitle } from '../ui/page-title.ts';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="mt-2 text-slate-600">There is nothing at this address.</p>
      <Link to="/" className="text-brand-700 dark:text-brand-300 mt-6 inline-block font-medium underline">
        Go to the home page
      </Link>
    </main>
  );
}
