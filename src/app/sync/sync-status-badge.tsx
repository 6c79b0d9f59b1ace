import { useSyncStatus, type SyncStatus } from '../../sync/status-store.ts';

function changes(count: number): string {
  return `${count} ${count === 1 ? 'change' : 'changes'}`;
}

/** The words of the always-visible sync status (docs/sync-protocol.md, Client). */
export function syncStatusText(status: SyncStatus): string {
  switch (status.state) {
    case 'syncing':
      return 'Syncing…';
    case 'offline':
      return status.pending > 0 ? `Offline — ${changes(status.pending)} waiting` : 'Offline';
    case 'error':
      return status.message || 'Sync failed';
    default:
      return 'Synced';
  }
}

/** Still dots: a pulsing one would keep frames ticking during every sync (see ui/button.tsx). */
const dots: Record<SyncStatus['state'], string> = {
  synced: 'bg-emerald-500',
  syncing: 'bg-sky-500',
  offline: 'bg-amber-500',
  error: 'bg-red-600',
};

interface BadgeProps {
  /** Only the dot (the words stay for screen readers). */
  compact?: boolean;
  /** Small text on up to two lines (the mobile header). */
  wrap?: boolean;
  status?: SyncStatus;
}

/** A live status line. */
export function SyncStatusBadge({ compact = false, wrap = false, status: given }: BadgeProps) {
  const current = useSyncStatus();
  const status = given ?? current;
  const text = syncStatusText(status);
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label="Sync status"
      title={text}
      data-state={status.state}
      className="flex min-w-0 items-center gap-2 px-3 py-1 text-xs text-slate-700"
    >
      <span aria-hidden="true" className={`h-2 w-2 shrink-0 rounded-full ${dots[status.state]}`} />
      <span className={compact ? 'sr-only' : wrap ? 'line-clamp-2 text-[11px] leading-tight' : 'truncate'}>{text}</span>
    </div>
  );
}
