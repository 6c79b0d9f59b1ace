/**
 * Mounts the reminder scheduler for the signed-in user (issue 16.4). The scheduler and the date
 * library it plans with load once the shell has rendered and the page is idle, so they stay out of
 * the first paint; it stops at sign-out (the database goes with it).
 */
import { useEffect } from 'react';
import { useUserDb } from '../../data/user-db-context.ts';

export function ReminderNotifications() {
  const { db } = useUserDb();
  useEffect(() => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    const start = () =>
      void import('./reminder-scheduler.ts')
        .then(({ startReminderScheduler }) => {
          if (!cancelled) stop = startReminderScheduler({ db }).dispose;
        })
        .catch(() => undefined);
    let cancel: () => void;
    if (typeof requestIdleCallback === 'function') {
      const idle = requestIdleCallback(start, { timeout: 3_000 });
      cancel = () => cancelIdleCallback(idle);
    } else {
      const timer = setTimeout(start, 1_000);
      cancel = () => clearTimeout(timer);
    }
    return () => {
      cancelled = true;
      cancel();
      stop?.();
    };
  }, [db]);
  return null;
}
