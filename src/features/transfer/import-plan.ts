/**
 * What an import will do, decided before anything is written: which directories are
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
 *   duplicate, by the duplicate rule of Add Link (src/domain/link-identity.ts: tracking
 *   parameters, `www.`, a trailing slash ... do not make another page); a URL that cannot be saved
 *   is skipped under its true reason (url-problem.ts).
 * - An import brings at most IMPORT_LINKS_MAX new links (docs/import.md, Large files): the rest are
 *   skipped as left for the next import, and importing the same file again brings them, the ones
 *   already imported being duplicates by then. Each import is whole: its links are every one it planned.
 * - A link keeps its creation time (ADD_DATE) when the server would take it, else it is now.
 * - Directories do not nest: a nested folder becomes a directory named 'Dev / PHP', and the preview
 *   says so. A Linkboard export's directory keeps its colour, description and visibility; one that
 *   had a password comes back private (passwords are never exported), and the preview says so.
 */
import { IMPORTED_FOLDER_NAME } from '../../domain/bookmarks/netscape-parse.ts';
import { URL_MAX, URL_PROBLEMS, urlProblem } from '../../domain/bookmarks/url-problem.ts';
import type { MutationArgs } from '../../domain/mutation-contract.ts';
import type { MutationStep } from '../../data/run-mutator.ts';
import { formatNumber } from '../../domain/number-format.ts';
import { FREE_LIMITS } from '../../domain/plans.ts';
import { messages } from '../../domain/sync-codes.ts';
import { cleanTags, creationTime, normalizeUrl } from '../../domain/validation.ts';
import { LINK_DESCRIPTION_MAX, LINK_NOTES_MAX, LINK_TITLE_MAX } from '../../domain/link-limits.ts';
import { linkIdentity } from '../../domain/link-identity.ts';
import { planEvents } from './import-plan-events.ts';
import { storableText } from '../../domain/storable-text.ts';
import { cutSavable } from './savable-text.ts';
import type { ImportSource, SourceFolder } from './import-source.ts';
import type { ImportState } from './import-state.ts';

export const SKIP_REASONS = [...URL_PROBLEMS, 'duplicate', 'over-limit', 'next-import'] as const;

/** The new links one import brings (docs/import.md, Large files). */
export const IMPORT_LINKS_MAX = 50_000;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Each reason as the preview and the summary say it. */
export function skipReasonText(reason: SkipReason): string {
  switch (reason) {
    case 'empty':
      return 'without a URL';
    case 'not-http':
      return 'not http(s)';
    case 'too-long':
      return `URL longer than ${formatNumber(URL_MAX)} characters`;
    case 'invalid':
      return 'not a valid URL';
    case 'duplicate':
      return 'duplicate';
    case 'over-limit':
      return "over the plan's limit";
    case 'next-import':
      return 'left for the next import';
  }
}

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
  /** What went wrong reading the file (its characters): shown before the import. */
  warnings: string[];
  /** Free: the plan's limit left something out; the sentence that leads to the upgrade, else null. */
  upsell: string | null;
}

export interface PlanOptions {
  now: Date;
  newId?: () => string;
  /** The links one import brings (IMPORT_LINKS_MAX; smaller in tests). */
  maxLinks?: number;
}

/** The server's lengths for a directory (rules.sql, text_limits): a deeply nested folder's name is cut. */
const NAME_MAX = 100;
const DIRECTORY_DESCRIPTION_MAX = 1000;

export const FREE_FOLDERS_NOTE = (name: string) =>
  `Your Free plan has one directory: all folders go into "${name}". Upgrade to Pro to keep each folder.`;
export const TAGS_NOTE = 'Tags and favourites are left out: Upgrade to Pro to use tags.';
export const NESTED_NOTE = (name: string) => `Nested folders become directories named like "${name}".`;
export const NEXT_IMPORT_NOTE = (left: number, max = IMPORT_LINKS_MAX) =>
  `An import brings at most ${formatNumber(max)} links. Import the same file again for the ${formatNumber(left)} left: the ones imported now are skipped as duplicates.`;
export const PASSWORD_NOTE =
  'Passwords are never exported: password-protected directories are imported as private. Set a password to share them again.';

const key = (name: string) => name.trim().toLowerCase();

export function buildImportPlan(source: ImportSource, state: ImportState, options: PlanOptions): ImportPlan {
  const newId = options.newId ?? (() => crypto.randomUUID());
  const maxLinks = options.maxLinks ?? IMPORT_LINKS_MAX;
  const free = state.tier === 'free';
  const plan: ImportPlan = {
    directories: [],
    reused: [],
    links: [],
    events: [],
    eventCount: 0,
    skipped: {
      empty: 0,
      'not-http': 0,
      'too-long': 0,
      invalid: 0,
      duplicate: 0,
      'over-limit': 0,
      'next-import': 0,
      ...source.rejected,
    },
    found: {
      links:
        Object.values(source.rejected).reduce((n, count) => n + count, 0) +
        source.folders.reduce((n, folder) => n + folder.links.length, 0),
      folders: source.folders.length,
      events: source.events.length + source.series.length,
    },
    room: free ? Math.max(0, FREE_LIMITS.links - state.linkCount) : null,
    notes: [],
    warnings: source.warnings,
    upsell: null,
  };
  const byName = new Map(state.directories.map((dir) => [key(dir.name), dir.id]));
  const keys = new Map([...state.keysByDirectory].map(([id, set]) => [id, new Set(set)]));
  let directoriesLeft = free ? Math.max(0, FREE_LIMITS.directories - state.directoryCount) : Infinity;
  let passwordsLost = false;
  let nestedName: string | null = null;

  const target = (folder: SourceFolder): string | null => {
    const name = cutSavable(folder.name, NAME_MAX) || IMPORTED_FOLDER_NAME;
    if (folder.nested) nestedName ??= name;
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
    if (folder.description) args.description = cutSavable(folder.description, DIRECTORY_DESCRIPTION_MAX);
    if (folder.isPublic && folder.hasPassword) passwordsLost = true;
    else if (folder.isPublic) args.is_public = true;
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
      const problem = urlProblem(link.url) ?? (url === null ? 'invalid' : null);
      if (problem !== null || url === null) {
        plan.skipped[problem ?? 'invalid'] += 1;
        continue;
      }
      const identity = linkIdentity(url) ?? url;
      const seen = directoryId === null ? undefined : (keys.get(directoryId) ?? new Set<string>());
      if (seen?.has(identity)) {
        plan.skipped.duplicate += 1;
        continue;
      }
      if (directoryId === null || seen === undefined || (plan.room !== null && plan.links.length >= plan.room)) {
        plan.skipped['over-limit'] += 1;
        continue;
      }
      if (plan.links.length >= maxLinks) {
        plan.skipped['next-import'] += 1;
        continue;
      }
      seen.add(identity);
      keys.set(directoryId, seen);
      const tags = cleanTags(link.tags.map(storableText));
      if (free && (tags.length > 0 || link.favorite)) tagsLeftOut = true;
      const args: MutationArgs['link.create'] = {
        id: newId(),
        directory_id: directoryId,
        url,
        title: cutSavable(link.title, LINK_TITLE_MAX) || cutSavable(url, LINK_TITLE_MAX),
      };
      if (link.description) args.description = cutSavable(link.description, LINK_DESCRIPTION_MAX);
      if (link.notes) args.notes = cutSavable(link.notes, LINK_NOTES_MAX);
      if (!free && tags.length > 0) args.tags = tags;
      if (!free && link.favorite) args.is_favorite = true;
      const created = link.createdAt === null ? null : creationTime(link.createdAt, options.now);
      if (created !== null) args.created_at = created;
      plan.links.push(args);
    }
  }
  const linksOverLimit = plan.skipped['over-limit'];
  if (plan.skipped['next-import'] > 0) plan.notes.push(NEXT_IMPORT_NOTE(plan.skipped['next-import'], maxLinks));
  if (nestedName !== null) plan.notes.push(NESTED_NOTE(nestedName));
  if (passwordsLost) plan.notes.push(PASSWORD_NOTE);
  if (tagsLeftOut) plan.notes.push(TAGS_NOTE);
  const events = planEvents(source, state, newId);
  plan.events = events.steps;
  plan.eventCount = events.count;
  plan.skipped.duplicate += events.duplicates;
  plan.skipped['over-limit'] += events.overLimit;
  plan.notes.push(...events.notes);
  if (free && plan.skipped['over-limit'] > 0) {
    plan.upsell =
      linksOverLimit > 0 ? messages.moreLinks : events.overQuota > 0 ? messages.moreEvents : messages.recurring;
  }
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

/** Counts per skip reason in words, without the empty ones (the summary's list). */
export function skipList(skipped: Record<SkipReason, number>): { reason: string; count: number }[] {
  return SKIP_REASONS.filter((reason) => skipped[reason] > 0).map((reason) => ({
    reason: skipReasonText(reason),
    count: skipped[reason],
  }));
}
