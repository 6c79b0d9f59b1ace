import { LogoutIcon, MenuIcon } from '../../ui/icons.tsx';
import { FailedMutationsPanel } from '../sync/failed-mutations-panel.tsx';
import { SyncStatusBadge } from '../sync/sync-status-badge.tsx';

export function MobileHeader({
  onToggle,
  onLogout,
  open,
}: {
  onToggle: () => void;
  onLogout: () => void;
  open: boolean;
}) {
  return (
    <header className="sticky top-0 z-header flex h-14 items-center gap-3 border-b border-slate-200 bg-surface px-3">
      <button
        type="button"
        aria-label="Toggle sidebar"
        aria-expanded={open}
        onClick={onToggle}
        className="rounded-lg p-2 hover:bg-slate-100"
      >
        <MenuIcon />
      </button>
      <span className="text-brand-700 dark:text-brand-300 font-bold">Linkboard</span>
      <div className="flex min-w-0 flex-1 justify-end">
        <SyncStatusBadge wrap />
      </div>
      <button type="button" aria-label="Logout" onClick={onLogout} className="rounded-lg p-2 hover:bg-slate-100">
        <LogoutIcon />
      </button>
      <div className="absolute top-14 right-2 z-header w-64">
        <FailedMutationsPanel />
      </div>
    </header>
  );
}
