/**
 * Pays the first use of the browser's ICU (Intl and Temporal: number and date formats, collation,
 * time zones) off the main thread (docs/architecture.md, Boot without a fallback). ICU loads its data
 * and builds its caches once per process, not per thread: 20-250 ms on the main thread of a new
 * tab, the first time a screen formats a number or a date. Started by main.tsx while the screen's
 * chunks load; the page's own Intl objects are then made in well under a millisecond.
 */
const now = new Date();
new Intl.NumberFormat().format(1234.5);
for (const timeZone of [undefined, 'UTC']) {
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(now);
  new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'short', timeZone }).format(now);
}
'b'.localeCompare('a');
new Intl.PluralRules().select(2);
const temporal = (globalThis as { Temporal?: { Now: { zonedDateTimeISO(): { toString(): string } } } }).Temporal;
temporal?.Now.zonedDateTimeISO().toString();
self.close();
