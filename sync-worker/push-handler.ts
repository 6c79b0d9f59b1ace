/// <reference lib="webworker" />
/**
 * Reminders pushed by the server while the app is closed (send-reminders): each push
 * carries {title, body, tag, url} as JSON and is shown as a notification at once (the
 * subscription promised userVisibleOnly). The tag names the occurrence, so a notice the page
 * already showed for it is replaced, not doubled; data.url is where a click goes
 * (notification-click.ts).
 */
declare const self: ServiceWorkerGlobalScope;

export interface ReminderNotice {
  title: string;
  options: NotificationOptions;
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');

/** The notification for a push's data (JSON from send-reminders); anything else gets a plain notice. */
export function reminderNotice(raw: string | undefined): ReminderNotice {
  let data: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(raw ?? '') as unknown;
    if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: shown as a plain reminder.
  }
  const tag = text(data.tag, 200);
  return {
    title: text(data.title, 500) || 'Linkboard reminder',
    options: {
      body: text(data.body, 500),
      ...(tag ? { tag } : {}),
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: text(data.url, 2000) || '/Calendar' },
    },
  };
}

export function handlePushes(): void {
  self.addEventListener('push', (event) => {
    const { title, options } = reminderNotice(event.data?.text());
    event.waitUntil(self.registration.showNotification(title, options));
  });
}
