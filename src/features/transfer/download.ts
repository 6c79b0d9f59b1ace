/**
 * Saving a file the app made on the device: a Blob behind an object URL, clicked through a
 * temporary `<a download>`. Works offline; the URL is revoked once the browser has taken it.
 */

export type ExportKind = 'json' | 'html' | 'ics';

const NAMES: Record<ExportKind, string> = {
  json: 'linkboard',
  html: 'linkboard-bookmarks',
  ics: 'linkboard-calendar',
};

/** The MIME type of each kind of export. */
export const EXPORT_TYPES: Record<ExportKind, string> = {
  json: 'application/json',
  html: 'text/html',
  ics: 'text/calendar',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** 'linkboard-2026-11-25.json', 'linkboard-bookmarks-2026-11-25.html', 'linkboard-calendar-2026-11-25.ics' (local date). */
export function exportFileName(kind: ExportKind, now: Date): string {
  const day = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `${NAMES[kind]}-${day}.${kind}`;
}

/** Offers `content` for download as `name`. */
export function downloadFile(name: string, type: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: `${type};charset=utf-8` }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
    // Revoked on the next task: some browsers start the download only after the click returns.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
