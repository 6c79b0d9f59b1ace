import { useParams, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';

/** The username from ?user= or the last path segment (spec 2.13). */
export function PublicProfilePage() {
  const [params] = useSearchParams();
  const { username: fromPath } = useParams();
  const username = params.get('user') ?? fromPath ?? null;
  usePageTitle(username ? `@${username}` : 'Public Profile');
  return (
    <main className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="mb-6 text-2xl font-bold">{username ? `@${username}` : 'Public Profile'}</h1>
      <EmptyState title="No Public Collections">Public profiles are coming to Linkboard soon.</EmptyState>
    </main>
  );
}
