import { Link } from 'react-router-dom';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';

/** First word of the full name, or 'there' (spec 2.5). */
export function greetingName(fullName: string | null | undefined): string {
  return fullName?.trim().split(/\s+/)[0] || 'there';
}

export function DashboardPage() {
  const user = useCurrentUser((state) => state.user);
  usePageTitle('Dashboard');
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600">
        <Link to="/">Home</Link> / <span aria-current="page">Dashboard</span>
      </nav>
      <h1 className="mb-6 text-2xl font-bold">Welcome back, {greetingName(user?.full_name)}!</h1>
      <EmptyState title="Nothing scheduled for today">
        Your saved links, events, tasks and polls will be summarised here as you add them.
      </EmptyState>
    </>
  );
}
