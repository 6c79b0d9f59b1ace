import type { Locator } from '@playwright/test';

/**
 * Fills the event dialog's start (or a task's due date) or end with a 'YYYY-MM-DDTHH:mm' value:
 * the date picker takes the date, the time field the time as 24-hour 'HH:mm', which it reads in
 * any locale (src/domain/date-format.ts, parseClock).
 */
export async function fillWhen(dialog: Locator, field: 'Start' | 'End' | 'Due', value: string): Promise<void> {
  const dateLabel = field === 'Due' ? 'Due date (optional)' : `${field} date`;
  await dialog.getByLabel(dateLabel, { exact: true }).fill(value.slice(0, 10));
  await dialog.getByLabel(`${field} time`, { exact: true }).fill(value.slice(11, 16));
}
