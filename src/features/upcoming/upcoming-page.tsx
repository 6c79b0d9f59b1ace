import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';

export function UpcomingPage() {
  usePageTitle('Upcoming');
  return (
    <>
      <ScreenHeader title="Upcoming" />
      <EmptyState title="No upcoming events">Future events and pending tasks will appear here.</EmptyState>
    </>
  );
}
