import { Suspense, useEffect } from 'react';
import { create } from 'zustand';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { PLAN_NAMES, planChange, tierOf, type Tier } from '../../domain/plans.ts';
import { DialogLoadFailed, preloadable } from '../../ui/preloadable.ts';
import { toast } from '../../ui/toast-store.ts';
import type { DowngradeDialogProps } from './downgrade-dialog.tsx';

// The dialog (Radix) loads only when a downgrade is to be told.
const DowngradeDialog = preloadable<DowngradeDialogProps, typeof import('./downgrade-dialog.tsx')>(
  () => import('./downgrade-dialog.tsx'),
  'DowngradeDialog',
  DialogLoadFailed,
);

/** The downgrade waiting to be told (UI state, so a sync-driven change can open it from anywhere). */
const usePendingDowngrade = create<{ downgrade: { from: Tier; to: Tier } | null }>(() => ({ downgrade: null }));

const seenKey = (userId: string) => `lb_plan_seen:${userId}`;

function readSeen(userId: string): Tier | null {
  try {
    const value = localStorage.getItem(seenKey(userId));
    return value === null ? null : tierOf(value);
  } catch {
    return null;
  }
}

function writeSeen(userId: string, tier: Tier): void {
  try {
    localStorage.setItem(seenKey(userId), tier);
  } catch {
    // Storage unavailable: the notice may show again on the next load, nothing worse.
  }
}

/**
 * Says once, on each device, that the plan changed: an upgrade with a toast,
 * a downgrade with a dialog that says what stays readable and what now needs Pro. The tier comes
 * from the synced profile, so this follows a billing change made on any device without a reload.
 */
export function PlanChangeNotice() {
  const userId = useCurrentUser((state) => state.user?.id ?? null);
  const rawTier = useCurrentUser((state) => state.user?.subscription_tier ?? null);
  const username = useCurrentUser((state) => state.user?.username ?? null);
  const downgrade = usePendingDowngrade((state) => state.downgrade);

  useEffect(() => {
    if (!userId || rawTier === null) return;
    const now = tierOf(rawTier);
    const seen = readSeen(userId);
    writeSeen(userId, now);
    const change = planChange(seen, now);
    if (change === 'upgrade') toast(`Your plan is now ${PLAN_NAMES[now]}.`, 'success');
    if (change === 'downgrade' && seen) usePendingDowngrade.setState({ downgrade: { from: seen, to: now } });
  }, [userId, rawTier]);

  if (!downgrade) return null;
  return (
    <Suspense fallback={null}>
      <DowngradeDialog
        {...downgrade}
        username={username}
        onClose={() => usePendingDowngrade.setState({ downgrade: null })}
      />
    </Suspense>
  );
}
