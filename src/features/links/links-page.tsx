import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';

export function LinksPage() {
  usePageTitle('My Links');
  return (
    <>
      <ScreenHeader title="My Links" subtitle="Save and organize all your important links" />
      <EmptyState title="No directories yet">Your directories and links will appear here.</EmptyState>
    </>
  );
}
