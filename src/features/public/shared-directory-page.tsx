import { usePageTitle } from '../../ui/page-title.ts';

/** A directory opened by a visitor (spec 2.6): the access-denied state until sharing is built. */
export function SharedDirectoryPage() {
  usePageTitle('Shared directory');
  return (
    <main className="mx-auto max-w-2xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">This directory is not available</h1>
      <p className="mt-2 text-slate-600">
        It may be private or you don't have access. Ask the owner to make it public or invite you.
      </p>
    </main>
  );
}
