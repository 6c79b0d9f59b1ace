import type { Page } from '@playwright/test';

/**
 * The toast area (Radix Toast's viewport, 'Notifications (F8)'). Look for a toast's text in
 * here: its screen-reader announcer repeats the text outside it for a second.
 */
export const toasts = (page: Page) => page.getByRole('region', { name: /^Notifications/ });
