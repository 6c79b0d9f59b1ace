/**
 * Notification permission for reminders: asked only when the user turns a reminder
 * on and the browser has not been asked yet ('default'); a refusal is said in words, since the
 * browser will not ask again.
 */
import { useCallback, useState } from 'react';

export const NOTIFICATIONS_BLOCKED =
  'Notifications are blocked for Linkboard in this browser; reminders will not show here.';

export type NotificationState = NotificationPermission | 'unsupported';

export function notificationState(): NotificationState {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** The permission, asking first when it is 'default'. */
export async function askForNotifications(): Promise<NotificationState> {
  const state = notificationState();
  if (state !== 'default') return state;
  try {
    return await Notification.requestPermission();
  } catch {
    return notificationState();
  }
}

/**
 * `reminderTurnedOn()` asks when needed; `blocked` is true once an ask (or the browser's earlier
 * answer) says notifications are denied, for the form to show NOTIFICATIONS_BLOCKED.
 */
export function useNotificationPermission(): { blocked: boolean; reminderTurnedOn(): void } {
  const [blocked, setBlocked] = useState(false);
  const reminderTurnedOn = useCallback(() => {
    void askForNotifications().then((state) => setBlocked(state === 'denied'));
  }, []);
  return { blocked, reminderTurnedOn };
}
