/**
 * Pays the first use of the browser's ICU (Intl and Temporal: number and date formats, collation,
 * time zones) off the main thread (docs/architecture.md, Boot without a fallback). ICU loads its data
 * and builds its caches once per process, not per thread: 20-250 ms on the main thread of a new
 * tab, the first time a screen formats a number or a date. Started by main.tsx while the screen's
 * chunks load; the page's own Intl objects are then made in well under a millisecond.
 */
const zone = new URL(self.location.href).searchParams.get('tz') ?? undefined;
const now = new Date();
new Intl.NumberFormat().format(1234.5);
for (const timeZone of [undefined, 'UTC', zone]) {
  try {
    new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(now);
    new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'short', timeZone }).format(now);
  } catch {
    // A zone this browser does not know: the page falls back the same way.
  }
}
'b'.localeCompare('a');
new Intl.PluralRules().select(2);
const temporal = (globalThis as { Temporal?: { Now: { zonedDateTimeISO(zone?: string): { toString(): string } } } })
  .Temporal;
try {
  temporal?.Now.zonedDateTimeISO(zone).toString();
} catch {
  // As above.
}
self.close();
