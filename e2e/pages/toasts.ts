import type { Page } from '@playwright/test';

/**
 * The toast area (Radix Toast's viewport, 'Notifications (F8)'). Look for a toast's text in
 * here: its screen-reader announcer repeats the text outside it for a second. Found by its
 * label rather than its role, since an open modal dialog hides the rest of the page (the area
 * included) from the accessibility tree.
 */
export const toasts = (page: Page) => page.locator('[role="region"][aria-label^="Notifications"]');
