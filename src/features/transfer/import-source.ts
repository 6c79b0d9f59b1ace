/**
 * What an import file holds, in one shape whatever the file: a browser bookmark file
 * (ParsedBookmarks) or this app's JSON export (WorkspaceExport) become folders of links, and for
 * the export also events, tasks and recurring series. Pure: the plan (import-plan.ts) decides
 * what is created.
 */
import type { ParsedBookmarks } from '../../domain/bookmarks/netscape-parse.ts';
import type { UrlProblem } from '../../domain/bookmarks/url-problem.ts';
import type { DirectoryColor, Priority, RecurrenceRule, ReminderOffset } from '../../domain/validation.ts';
import type { WorkspaceExport } from './workspace-export.ts';

export interface SourceLink {
  url: string;
  title: string;
  /** ISO, or null when the file gives none (ADD_DATE, or the export's created_at). */
  createdAt: string | null;
  tags: string[];
  description: string | null;
  notes: string | null;
  favorite: boolean;
}

export interface SourceFolder {
  name: string;
  /** The export's own directory fields; a bookmark folder has none. */
  color?: DirectoryColor;
  description?: string | null;
  isPublic?: boolean;
  /** The directory had a password (never in an export, so it cannot come back). */
  hasPassword?: boolean;
  /** A bookmark folder that sat inside another; its name joins theirs ('Dev / PHP'). */
  nested?: boolean;
  links: SourceLink[];
}

export interface SourceEvent {
  title: string;
  description: string | null;
  starts_at: string | null;
  ends_at: string | null;
  is_task: boolean;
  priority: Priority | null;
  is_completed: boolean;
  /** Minutes before the start it reminds; absent or null: none. */
  reminder_minutes?: ReminderOffset | null;
  /** Whole days (absent: false). */
  all_day?: boolean;
}

export interface SourceSeries {
  rule: RecurrenceRule;
  until: string;
  reminder_minutes?: ReminderOffset | null;
  all_day?: boolean;
  occurrences: { title: string; description: string | null; starts_at: string; ends_at: string }[];
}

export interface ImportSource {
  kind: 'bookmarks' | 'workspace';
  folders: SourceFolder[];
  /** Bookmarks the parser already left out, by the reason their URL cannot be saved. */
  rejected: Partial<Record<UrlProblem, number>>;
  /** What went wrong reading the file (its characters), for the preview. */
  warnings: string[];
  events: SourceEvent[];
  series: SourceSeries[];
}

export function fromBookmarks(parsed: ParsedBookmarks, warnings: string[] = []): ImportSource {
  const rejected: Partial<Record<UrlProblem, number>> = {};
  for (const { reason } of parsed.skipped) rejected[reason] = (rejected[reason] ?? 0) + 1;
  return {
    kind: 'bookmarks',
    folders: parsed.folders.map((folder) => ({
      name: folder.name,
      ...(folder.nested ? { nested: true } : {}),
      links: folder.links.map((link) => ({
        url: link.url,
        title: link.title,
        createdAt: link.createdAt,
        tags: link.tags,
        description: link.description,
        notes: null,
        favorite: false,
      })),
    })),
    rejected,
    warnings,
    events: [],
    series: [],
  };
}

/**
 * The user's own directories and calendar from an export. Directories shared with the user are
 * someone else's and are left out; so are polls, votes, time poll answers and invitations (they belong
 * to their polls: an import does not vote or answer again).
 */
export function fromWorkspace(exp: WorkspaceExport, warnings: string[] = []): ImportSource {
  const events: SourceEvent[] = [];
  const series = new Map<string, SourceSeries>();
  for (const event of exp.events) {
    const rule = event.recurrence_rule;
    if (event.series_id && rule !== 'none' && event.starts_at && event.ends_at) {
      const entry = series.get(event.series_id) ?? {
        rule,
        until: event.recurrence_end_date ?? '',
        reminder_minutes: event.reminder_minutes,
        all_day: event.all_day,
        occurrences: [],
      };
      entry.occurrences.push({
        title: event.title,
        description: event.description,
        starts_at: event.starts_at,
        ends_at: event.ends_at,
      });
      series.set(event.series_id, entry);
      continue;
    }
    const { title, description, starts_at, ends_at, is_task, priority, is_completed, reminder_minutes } = event;
    events.push({ title, description, starts_at, ends_at, is_task, priority, is_completed, reminder_minutes });
    if (event.all_day) events[events.length - 1]!.all_day = true;
  }
  return {
    kind: 'workspace',
    folders: exp.directories.map((dir) => ({
      name: dir.name,
      color: dir.color,
      description: dir.description,
      isPublic: dir.is_public,
      hasPassword: dir.has_password,
      links: dir.links.map((link) => ({
        url: link.url,
        title: link.title,
        createdAt: link.created_at,
        tags: link.tags,
        description: link.description,
        notes: link.notes,
        favorite: link.is_favorite,
      })),
    })),
    rejected: {},
    warnings,
    events,
    // A series without its end date is imported as its occurrences' last start.
    series: [...series.values()].map((s) => ({
      ...s,
      until: s.until || s.occurrences.reduce((last, o) => (o.starts_at > last ? o.starts_at : last), ''),
    })),
  };
}
