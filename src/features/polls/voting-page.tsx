import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';

export function VotingPage() {
  usePageTitle('Public Voting Board');
  return (
    <>
      <ScreenHeader title="Public Voting Board" />
      <EmptyState title="No active polls yet">Create your first community poll to get started</EmptyState>
    </>
  );
}
