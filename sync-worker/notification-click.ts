/// <reference lib="webworker" />
/**
 * A click on a reminder notification focuses a window of the app and takes it to
 * the notification's `data.url` (the user's calendar), or opens one there when none is open.
 */
declare const self: ServiceWorkerGlobalScope;

/** The same-origin path a notification's data names; the calendar when it names none. */
export function notificationPath(data: unknown, origin: string): string {
  const url = (data as { url?: unknown } | null)?.url;
  if (typeof url !== 'string') return '/Calendar';
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? `${target.pathname}${target.search}${target.hash}` : '/Calendar';
  } catch {
    return '/Calendar';
  }
}

async function openApp(path: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    const focused = await open.focus();
    await focused.navigate(path).catch(() => undefined);
    return;
  }
  await self.clients.openWindow(path);
}

export function handleNotificationClicks(): void {
  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    event.waitUntil(openApp(notificationPath(event.notification.data, self.location.origin)));
  });
}
