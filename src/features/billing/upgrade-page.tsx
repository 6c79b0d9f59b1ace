import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';

export function UpgradePage() {
  usePageTitle('Upgrade');
  return (
    <>
      <ScreenHeader title="Upgrade" />
      <EmptyState title="Plans">Plan comparison and checkout will appear here.</EmptyState>
    </>
  );
}
