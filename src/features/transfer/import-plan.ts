/**
 * What an import will do, decided before anything is written (issue 16): which directories are
 * created or reused, which links are created, and what is skipped and why. Pure, so the dialog can
 * show it first and the tests need no database.
 *
 * Rules:
 * - A folder goes into the user's own directory of the same name (compared case-insensitively),
 *   else into a new directory of that name.
 * - Free plan (1 directory, 30 links): every folder goes into ONE directory: the user's directory
 *   named like one of the folders, else their oldest; with none, a new one named after the file's
 *   only folder, or 'Imported bookmarks' when there are several. Links beyond the room left are
 *   skipped as over the plan's limit; tags and favourites are left out (Pro features).
 * - A link whose URL is already in its target directory (there, or earlier in the file) is a
 *   duplicate; a URL that is not http(s) is skipped.
 * - A link keeps its creation time (ADD_DATE) when the server would take it, else it is now.
 */
import { IMPORTED_FOLDER_NAME } from '../../domain/bookmarks/netscape-parse.ts';
import type { MutationArgs } from '../../data/mutation-args.ts';
import type { MutationStep } from '../../data/mutate.ts';
import { FREE_LIMITS } from '../../domain/plans.ts';
import { cleanTags, creationTime, normalizeUrl } from '../../domain/validation.ts';
import { planEvents } from './import-plan-events.ts';
import type { ImportSource, SourceFolder } from './import-source.ts';
import type { ImportState } from './import-state.ts';
import { cutText } from '../../domain/storable-text.ts';

export const SKIP_REASONS = ['not http(s)', 'duplicate', "over the plan's limit"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface ImportPlan {
  directories: MutationArgs['directory.create'][];
  /** Names of the user's directories the links go into. */
  reused: string[];
  links: MutationArgs['link.create'][];
  /** Calendar steps (JSON export only): event.create, task.set_completed, series.create. */
  events: MutationStep[];
  eventCount: number;
  skipped: Record<SkipReason, number>;
  found: { links: number; folders: number; events: number };
  /** Free: how many more links fit before the import; null on paid plans. */
  room: number | null;
  /** Sentences for the summary: where a Free plan's folders went, what was left out. */
  notes: string[];
}

export interface PlanOptions {
  now: Date;
  newId?: () => string;
}

const TITLE_MAX = 500;
const DESCRIPTION_MAX = 2000;
/** The server's lengths for a directory (rules.sql, text_limits): a deeply nested folder's name is cut. */
const NAME_MAX = 100;
const DIRECTORY_DESCRIPTION_MAX = 1000;

export const FREE_FOLDERS_NOTE = (name: string) =>
  `Your Free plan has one directory: all folders go into "${name}". Upgrade to Pro to keep each folder.`;
export const TAGS_NOTE = 'Tags and favourites are left out: Upgrade to Pro to use tags.';

const key = (name: string) => name.trim().toLowerCase();

export function buildImportPlan(source: ImportSource, state: ImportState, options: PlanOptions): ImportPlan {
  const newId = options.newId ?? (() => crypto.randomUUID());
  const free = state.tier === 'free';
  const plan: ImportPlan = {
    directories: [],
    reused: [],
    links: [],
    events: [],
    eventCount: 0,
    skipped: { 'not http(s)': source.notHttp, duplicate: 0, "over the plan's limit": 0 },
    found: {
      links: source.notHttp + source.folders.reduce((n, folder) => n + folder.links.length, 0),
      folders: source.folders.length,
      events: source.events.length + source.series.length,
    },
    room: free ? Math.max(0, FREE_LIMITS.links - state.linkCount) : null,
    notes: [],
  };
  const byName = new Map(state.directories.map((dir) => [key(dir.name), dir.id]));
  const urls = new Map([...state.urlsByDirectory].map(([id, set]) => [id, new Set(set)]));
  let directoriesLeft = free ? Math.max(0, FREE_LIMITS.directories - state.directoryCount) : Infinity;

  const target = (folder: SourceFolder): string | null => {
    const name = cutText(folder.name.trim() || IMPORTED_FOLDER_NAME, NAME_MAX).trim();
    const existing = byName.get(key(name));
    if (existing !== undefined) {
      const own = state.directories.find((dir) => dir.id === existing)?.name;
      if (own !== undefined && !plan.reused.includes(own)) plan.reused.push(own);
      return existing;
    }
    if (directoriesLeft <= 0) return null;
    directoriesLeft -= 1;
    const id = newId();
    const args: MutationArgs['directory.create'] = { id, name };
    if (folder.color) args.color = folder.color;
    if (folder.description) args.description = cutText(folder.description, DIRECTORY_DESCRIPTION_MAX);
    plan.directories.push(args);
    byName.set(key(args.name), id);
    return id;
  };

  const freeTarget = free ? freeDirectory(source, state) : null;
  if (freeTarget && source.folders.some((folder) => folder.links.length > 0)) {
    plan.notes.push(FREE_FOLDERS_NOTE(freeTarget.name));
  }
  let tagsLeftOut = false;
  for (const folder of source.folders) {
    const directoryId = freeTarget ? target(freeTarget) : target(folder);
    for (const link of folder.links) {
      const url = normalizeUrl(link.url);
      if (url === null || !/^https?:\/\//i.test(link.url.trim())) {
        plan.skipped['not http(s)'] += 1;
        continue;
      }
      const seen = directoryId === null ? undefined : (urls.get(directoryId) ?? new Set<string>());
      if (seen?.has(url)) {
        plan.skipped.duplicate += 1;
        continue;
      }
      if (directoryId === null || seen === undefined || (plan.room !== null && plan.links.length >= plan.room)) {
        plan.skipped["over the plan's limit"] += 1;
        continue;
      }
      seen.add(url);
      urls.set(directoryId, seen);
      const tags = cleanTags(link.tags);
      if (free && (tags.length > 0 || link.favorite)) tagsLeftOut = true;
      const args: MutationArgs['link.create'] = {
        id: newId(),
        directory_id: directoryId,
        url,
        title: cutText(link.title.trim() || url, TITLE_MAX),
      };
      if (link.description) args.description = cutText(link.description, DESCRIPTION_MAX);
      if (link.notes) args.notes = link.notes;
      if (!free && tags.length > 0) args.tags = tags;
      if (!free && link.favorite) args.is_favorite = true;
      const created = link.createdAt === null ? null : creationTime(link.createdAt, options.now);
      if (created !== null) args.created_at = created;
      plan.links.push(args);
    }
  }
  if (tagsLeftOut) plan.notes.push(TAGS_NOTE);
  const events = planEvents(source, state, newId);
  plan.events = events.steps;
  plan.eventCount = events.count;
  plan.skipped.duplicate += events.duplicates;
  plan.skipped["over the plan's limit"] += events.overLimit;
  plan.notes.push(...events.notes);
  return plan;
}

/** The one directory a Free user's folders all go into, as a folder to reuse or create. */
function freeDirectory(source: ImportSource, state: ImportState): SourceFolder {
  const names = new Set(source.folders.map((folder) => key(folder.name)));
  const own = state.directories.find((dir) => names.has(key(dir.name))) ?? state.directories[0];
  if (own) return { name: own.name, links: [] };
  const only = source.folders.length === 1 ? source.folders[0] : undefined;
  return only ? { ...only, links: [] } : { name: IMPORTED_FOLDER_NAME, links: [] };
}

/** Counts per skip reason, without the empty ones (the summary's list). */
export function skipList(skipped: Record<string, number>): { reason: string; count: number }[] {
  return Object.entries(skipped)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => ({ reason, count }));
}
