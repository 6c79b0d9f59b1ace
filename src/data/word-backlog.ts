/**
 * The words of links a pull from scratch brought, indexed after it (docs/architecture.md, "A pull
 * from scratch's words come after it"). A link's words are most of what writing it costs (its
 * token index entries, link-index.ts: about seven for one row and its three other keys), so the
 * pages of a pull from scratch store their links without `_words` and the sync ends as soon as the
 * rows are in. A pass run when the page is idle (`indexWordBacklog`) then writes the words of each
 * step's links into `link_words` in a few rows (`{ id, words }`, `stepRows`): every entry of
 * theirs, each with its link's id after it (`{word} {newest} {id}`), under a multi-entry index.
 * The links are not written again (the screens reading them are not woken), and a step is one
 * write of STEP_ROWS rows, not one a link.
 *
 * A search reads both indexes (queries/word-streams.ts): the entries' keys alone give the links'
 * ids in the token index's order. A link's row is the truth: one found through `link_words` counts
 * only while its row has no `_words` of its own (any later write of the link sets them) and its
 * words still match. Until the pass has ended (`wordBacklogPending`) a link of the pull may be in
 * neither index; the lists that hold their links in memory (a directory's search up to a size,
 * the palette's up to a size) compute the words of such a row.
 */
import type { DBCoreTransaction } from 'dexie';
import { Dexie } from 'dexie';
import type { LinkboardDb } from './db.ts';
import { wordEntriesOf } from './link-index.ts';
import type { LinkRow } from './rows.ts';

/** The store of the words the pass wrote. */
export const LINK_WORDS_STORE = 'link_words';
/** Its Dexie schema: a step's key (its round and first link), and its links' entries. */
export const LINK_WORDS_SCHEMA = 'id, *words';

/** Some of one step's entries, written by the pass: `{word} {newest} {link id}` for each word of each link. */
export interface LinkWordsRow {
  id: string;
  words: string[];
}

/** An entry of `link_words`: a token index entry (link-index.ts) and the link it is of. */
export const linkWordEntry = (entry: string, linkId: string) => `${entry} ${linkId}`;

/** The token index entry and the link id of a `link_words` entry. */
export function splitLinkWordEntry(key: string): { entry: string; id: string } {
  const at = key.lastIndexOf(' ');
  return { entry: key.slice(0, at), id: key.slice(at + 1) };
}

/** The meta row of a backlog: present from a pull from scratch's first page until the pass ends. */
export const BACKLOG_KEY = 'wordBacklog';

/**
 * Where the pass is: `after`, the last link id it indexed (null: from the first); `round`, changed
 * by every page written without words, so a pass that started before it walks the links again.
 */
interface Backlog {
  after: string | null;
  round: string;
}

/** The transactions writing links without their words (a pull from scratch's pages). */
const deferring = new WeakSet<object>();

/**
 * Called inside a transaction that writes a pull from scratch's page: its links are stored
 * without `_words` (local-keys.ts asks `wordsDeferredIn`), and the backlog starts again from the
 * first link (an earlier pass may have gone past the ids this page brings).
 */
export async function deferWordsOfThisTransaction(db: LinkboardDb): Promise<void> {
  const tx = Dexie.currentTransaction;
  if (!tx) throw new Error('deferWordsOfThisTransaction: no transaction');
  deferring.add(tx.idbtrans);
  const backlog: Backlog = { after: null, round: crypto.randomUUID() };
  await db.meta.put({ key: BACKLOG_KEY, value: backlog });
}

/** Whether the DBCore transaction `trans` stores links without their words. */
export function wordsDeferredIn(trans: DBCoreTransaction | undefined): boolean {
  return trans !== undefined && deferring.has(trans);
}

function readBacklog(value: unknown): Backlog | null {
  if (typeof value !== 'object' || value === null) return null;
  const { after, round } = value as Partial<Backlog>;
  if (typeof round !== 'string' || (after !== null && typeof after !== 'string')) return null;
  return { after, round };
}

/** Whether some links of a pull from scratch may not be indexed yet. */
export async function wordBacklogPending(db: LinkboardDb): Promise<boolean> {
  return readBacklog((await db.meta.get(BACKLOG_KEY))?.value) !== null;
}

/** Links read and indexed at a time: one pass step, a short read and a short write. */
export const PASS_PAGE = 500;

/** What one step of the pass read: the backlog as it was, and the next links after its `after`. */
export interface WordPage {
  backlog: Backlog;
  rows: LinkRow[];
  size: number;
}

/** The first half of a step: the next `size` links after the backlog's `after` (a read); null without a backlog. */
export async function readWordPage(db: LinkboardDb, size = PASS_PAGE): Promise<WordPage | null> {
  const backlog = readBacklog((await db.meta.get(BACKLOG_KEY))?.value);
  if (!backlog) return null;
  const links = db.saved_links;
  const rows = await (backlog.after === null ? links.orderBy(':id') : links.where(':id').above(backlog.after))
    .limit(size)
    .toArray();
  return { backlog, rows, size };
}

/**
 * The second half: the words of the page's links without `_words` written into `link_words`, and
 * `after` moved on, in one write over `link_words` and `meta`. If a page written without words came
 * since the read, it writes nothing (the pass starts again from the first link). Answers whether
 * links remain.
 */
export function writeWordPage(db: LinkboardDb, read: WordPage): Promise<boolean> {
  const unindexed = read.rows.filter((row) => !Reflect.has(row, '_words'));
  return db.transaction('rw', [db.link_words, db.meta], async () => {
    const now = readBacklog((await db.meta.get(BACKLOG_KEY))?.value);
    if (!now) return false;
    if (now.round !== read.backlog.round) return true;
    const first = read.rows[0];
    // A walk that starts over in the same round writes the same step again, under the same key.
    if (first && unindexed.length > 0) {
      const words = unindexed.flatMap((row) => wordEntriesOf(row).map((entry) => linkWordEntry(entry, row.id)));
      await db.link_words.bulkPut(stepRows(`${read.backlog.round} ${first.id}`, words));
    }
    const last = read.rows.at(-1);
    if (!last || read.rows.length < read.size) {
      // The steps of rounds a page written without words ended hold nothing the last round has not.
      const steps = (await db.link_words.toCollection().primaryKeys()) as string[];
      const stale = steps.filter((key) => !key.startsWith(`${read.backlog.round} `));
      if (stale.length > 0) await db.link_words.bulkDelete(stale);
      await db.meta.delete(BACKLOG_KEY);
      return false;
    }
    const next: Backlog = { after: last.id, round: read.backlog.round };
    await db.meta.put({ key: BACKLOG_KEY, value: next });
    return true;
  });
}

/**
 * Rows a step's entries are written in, when there are more entries than rows. Dexie tells its
 * live queries the keys a write of fewer than 50 rows changed, one by one, and each live query the
 * write does not wake keeps them until it next runs: a step of 6,000 entries in one row cost every
 * open screen's queries a merge of every entry written so far (41 s of a pass over 100,000 links,
 * docs/scale.md). A write of 50 rows or more is told as whole ranges.
 */
export const STEP_ROWS = 50;

/**
 * The rows of a step keyed `step` holding `words`: one for a few entries, else STEP_ROWS, each
 * `{step} {n}` (the same rows for the same step written again; rows left of an earlier write of it
 * hold entries of its links, which a search checks against their rows).
 */
export function stepRows(step: string, words: readonly string[]): LinkWordsRow[] {
  if (words.length <= STEP_ROWS) return [{ id: `${step} 0`, words: [...words] }];
  return Array.from({ length: STEP_ROWS }, (_, n) => ({
    id: `${step} ${n}`,
    words: words.slice(Math.floor((n * words.length) / STEP_ROWS), Math.floor(((n + 1) * words.length) / STEP_ROWS)),
  }));
}

/** One step of the pass (a read, then a write); answers whether links remain. */
export async function indexWordPage(db: LinkboardDb, size = PASS_PAGE): Promise<boolean> {
  const read = await readWordPage(db, size);
  return read ? writeWordPage(db, read) : false;
}

/**
 * The pass: pages indexed one after the other, each after the page is idle again (`idle`), until
 * none remain or `wanted` says to stop (the session ended). One pass at a time per database.
 */
export async function indexWordBacklog(
  db: LinkboardDb,
  idle: () => Promise<void>,
  wanted: () => boolean = () => true,
): Promise<void> {
  if (running.has(db)) return running.get(db);
  const pass = (async () => {
    while (wanted() && (await indexWordPage(db))) await idle();
  })().finally(() => running.delete(db));
  running.set(db, pass);
  return pass;
}

const running = new WeakMap<LinkboardDb, Promise<void>>();
