/** What the export section says after an export: counts in words, in the user's locale. */
import { formatCount } from '../../domain/number-format.ts';
import { inCalendarFile } from './calendar-export.ts';
import type { WorkspaceExport } from './workspace-export-format.ts';

const count = (n: number, one: string, many: string) => formatCount(n, one, many);

function linkCounts(exp: WorkspaceExport): string {
  const directories = [...exp.directories, ...exp.shared_directories];
  const links = directories.reduce((sum, dir) => sum + dir.links.length, 0);
  return `${count(links, 'link', 'links')} in ${count(directories.length, 'directory', 'directories')}`;
}

const items = (n: number) => count(n, 'event or task', 'events and tasks');

/** 'Exported 1,234 links in 5 directories.' */
export function bookmarksSummary(exp: WorkspaceExport): string {
  return `Exported ${linkCounts(exp)}.`;
}

/** 'Exported 87 events and tasks.' (what the .ics carries: events without a start are left out). */
export function calendarSummary(exp: WorkspaceExport): string {
  return `Exported ${items(exp.events.filter(inCalendarFile).length)}.`;
}

/** 'Exported 1,234 links in 5 directories, 87 events and tasks, and 3 polls.' */
export function workspaceSummary(exp: WorkspaceExport): string {
  return `Exported ${linkCounts(exp)}, ${items(exp.events.length)}, and ${count(exp.polls.length, 'poll', 'polls')}.`;
}
