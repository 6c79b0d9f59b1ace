import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';

export function CalendarPage() {
  usePageTitle('My Calendar & Tasks');
  return (
    <>
      <ScreenHeader title="My Calendar & Tasks" />
      <EmptyState title="No events scheduled for today">Your events and tasks will appear here.</EmptyState>
    </>
  );
}
