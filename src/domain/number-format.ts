/**
 * Numbers as the user reads them: grouped and punctuated by the device's locale ('1,000' in English,
 * '1.000' in German, '1 000' in French), the same on every screen (docs/architecture.md). One formatter
 * per locale, made once: building an Intl.NumberFormat costs far more than using one.
 */
const formatters = new Map<string, Intl.NumberFormat>();

/** The formatter of `locale`, or of the device's locale when none is given. */
function formatter(locale?: string): Intl.NumberFormat {
  const key = locale ?? '';
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(locale);
    formatters.set(key, found);
  }
  return found;
}

/** '1,000' (in the device's locale unless `locale` is given). */
export function formatNumber(n: number, locale?: string): string {
  return formatter(locale).format(n);
}

/** '1 link', '1,000 links': the count in the locale's digits and the word for it. */
export function formatCount(n: number, one: string, many = `${one}s`, locale?: string): string {
  return `${formatNumber(n, locale)} ${n === 1 ? one : many}`;
}
