/**
 * Mounts the reminder scheduler for the signed-in user. The scheduler only ever shows
 * notifications, so it loads (with its planning code) once notifications are allowed: at once when
 * they already are, else when the permission changes to granted (the Profile's reminder switch
 * asks for it). Even then it waits for the page to be idle, so it stays out of the first paint;
 * it stops at sign-out (the database goes with it).
 */
import { useEffect } from 'react';
import { useUserDb } from '../../data/user-db-context.ts';
import { whenIdle } from '../../timing/when-idle.ts';

const granted = () => typeof Notification !== 'undefined' && Notification.permission === 'granted';

export function ReminderNotifications() {
  const { db } = useUserDb();
  useEffect(() => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    let started = false;
    let cancelIdle: () => void = () => undefined;
    const load = () =>
      void import('./reminder-scheduler.ts')
        .then(({ startReminderScheduler }) => {
          if (!cancelled) stop = startReminderScheduler({ db }).dispose;
        })
        .catch(() => undefined);
    const start = () => {
      if (started || cancelled || !granted()) return;
      started = true;
      cancelIdle = whenIdle(load, 3_000, 1_000);
    };
    start();
    // Allowed later: the permission's change event, and (where a browser has none) the next time
    // the tab is shown.
    let permission: PermissionStatus | null = null;
    if (!started && typeof navigator !== 'undefined' && navigator.permissions?.query) {
      navigator.permissions
        .query({ name: 'notifications' })
        .then((status) => {
          if (cancelled) return;
          permission = status;
          status.addEventListener('change', start);
        })
        .catch(() => undefined);
    }
    const onVisible = () => {
      if (document.visibilityState === 'visible') start();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      cancelled = true;
      cancelIdle();
      permission?.removeEventListener('change', start);
      document.removeEventListener('visibilitychange', onVisible);
      stop?.();
    };
  }, [db]);
  return null;
}
