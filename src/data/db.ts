/** One Dexie database per signed-in user (docs/sync-protocol.md, Client). */
import { Dexie, type Table } from 'dexie';
import type {
  DirectoryRow,
  EventRow,
  LinkRow,
  MemberRow,
  MetaRow,
  OutboxRow,
  InvitationRow,
  PollRow,
  RowsByTable,
  SlotAnswersRow,
  UserProfileRow,
  VoteRow,
} from './rows.ts';
import { countedIndexes, dexieStores, movedIndexes, syncedTableNames, type SyncedTableName } from './synced-tables.ts';
import { CALENDAR_MONTH_COUNTS, MONTH_COUNTS_KEPT, withCalendarKeys } from './calendar-index.ts';
import { withLinkKeys } from './link-index.ts';
import { localKeysMiddleware } from './local-keys.ts';
import { COUNTS_STORE, countKeyRange, countsOf, indexCountsMiddleware, type CountRow } from './index-counts.ts';
import { PendingWrites } from './pending-writes.ts';
import { pendingWritesMiddleware } from './pending-writes-middleware.ts';
import { dbName } from './db-name.ts';
import { forEachPageByKey } from './pages-by-key.ts';
import { LINK_WORDS_SCHEMA, LINK_WORDS_STORE, type LinkWordsRow } from './word-backlog.ts';

/** Links read and written at a time by an upgrade that sets their keys. */
const UPGRADE_PAGE = 2000;

export interface OpenUserDbOptions {
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

export type MutationListener = (mutation: OutboxRow) => void;

export class LinkboardDb extends Dexie {
  user_profiles!: Table<UserProfileRow, string>;
  link_directories!: Table<DirectoryRow, string>;
  saved_links!: Table<LinkRow, string>;
  directory_members!: Table<MemberRow, string>;
  calendar_events!: Table<EventRow, string>;
  voting_posts!: Table<PollRow, string>;
  user_votes!: Table<VoteRow, string>;
  slot_answers!: Table<SlotAnswersRow, string>;
  event_invitations!: Table<InvitationRow, string>;
  outbox!: Table<OutboxRow, number>;
  meta!: Table<MetaRow, string>;
  /** Row counts per counted index value (index-counts.ts). */
  counts!: Table<CountRow, string>;
  /** The words of links a pull from scratch stored without them (word-backlog.ts). */
  link_words!: Table<LinkWordsRow, string>;

  readonly userId: string;
  /** IndexedDB's key ranges, of the same implementation as the database (a raw read's range). */
  readonly keyRange: typeof IDBKeyRange;
  /** Rows `mutate` wrote that screens show before the commit (pending-writes.ts). */
  readonly pending = new PendingWrites();
  private readonly mutationListeners = new Set<MutationListener>();

  constructor(userId: string, options: OpenUserDbOptions = {}) {
    super(dbName(userId), options);
    this.userId = userId;
    this.keyRange = options.IDBKeyRange ?? globalThis.IDBKeyRange;
    // The synced tables come from their declaration; changing a store string needs a new version
    // (Dexie adds or drops the indexes in place, from the schema the database has to the one
    // declared). Only the versions with an upgrade are declared, and the latest: Dexie reads the
    // schema a database has, so a version that only changed indexes needs no declaration once a
    // later one is declared, and each one declared costs the start of every session (about a
    // millisecond each: every declaration parses the ones before it). The versions: 2: saved_links
    // [directory_id+created_at]; 3: the counts store, filled from the rows already there; 4: the
    // calendar's local keys (calendar-index.ts), set on the rows already there, and their kinds
    // counted; 5: saved_links [directory_id+created_at+id] in place of [directory_id+created_at]
    // (link-window.ts anchors); 6: saved_links without owner_id (its count is kept: counts.ts); 7:
    // saved_links' `_urlKey` (link-index.ts), set on the links already there; 8: saved_links'
    // `broken_at` (the 'Broken links' filter); 9: a time poll's answers (slot_answers) and the
    // invitations of a picked time (event_invitations, docs/product.md, Find a time); 10:
    // saved_links' token index (`_words`, link-index.ts), set on the links already there, and
    // `updated_at`; 11: saved_links without `directory_id` (its reads go through the compound index:
    // group-range.ts); 12: link_words, the words of links a pull from scratch stored without them
    // (word-backlog.ts). A change of the duplicate rule (link-identity.ts) or of a link's words
    // (search-words.ts) needs a version that sets the keys again, as 7 and 10 do.
    const counted = countedIndexes();
    const stores = { ...dexieStores(), outbox: '++seq, &id, status', meta: 'key', [COUNTS_STORE]: 'key' };
    const v4 = { ...stores, saved_links: 'id, directory_id, owner_id, [directory_id+created_at]' };
    const v10 = {
      ...stores,
      saved_links: 'id, directory_id, [directory_id+created_at+id], broken_at, updated_at, _urlKey, *_words',
    };
    const v9 = { ...stores, saved_links: 'id, directory_id, [directory_id+created_at+id], broken_at, _urlKey' };
    const { slot_answers: _answers, event_invitations: _invitations, ...v8 } = v9;
    const v7 = { ...v8, saved_links: 'id, directory_id, [directory_id+created_at+id], _urlKey' };
    this.version(3)
      .stores({ ...v4, calendar_events: 'id, series_id, starts_at, owner_id' })
      .upgrade(async (tx) => {
        for (const [table, indexes] of Object.entries(counted)) {
          if (table === 'calendar_events') continue;
          await tx.table(COUNTS_STORE).bulkPut(countsOf(table, indexes, await tx.table(table).toArray()));
        }
      });
    this.version(4)
      .stores(v4)
      .upgrade(async (tx) => {
        const events = (await tx.table('calendar_events').toArray()).map(withCalendarKeys);
        await tx.table('calendar_events').bulkPut(events);
        const { lower, upper } = countKeyRange('calendar_events');
        await tx.table(COUNTS_STORE).where('key').between(lower, upper, true, true).delete();
        await tx.table(COUNTS_STORE).bulkPut(countsOf('calendar_events', counted.calendar_events ?? [], events));
      });
    this.version(7)
      .stores(v7)
      .upgrade(async (tx) => {
        const links = (await tx.table('saved_links').toArray()) as LinkRow[];
        await tx.table('saved_links').bulkPut(links.map((link) => withLinkKeys(link)));
      });
    this.version(10)
      .stores(v10)
      .upgrade(async (tx) => {
        // In pages by key, so 100,000 links are never all in memory at once.
        const links = tx.table<LinkRow, string>('saved_links');
        await forEachPageByKey(links, UPGRADE_PAGE, (page) =>
          links.bulkPut(page.map((link) => withLinkKeys(link))).then(() => undefined),
        );
      });
    this.version(12).stores({ ...stores, [LINK_WORDS_STORE]: LINK_WORDS_SCHEMA });
    // A new database keeps the calendar's month counts from its first row (calendar-index.ts).
    this.on('populate', (tx) => tx.table(COUNTS_STORE).put({ key: MONTH_COUNTS_KEPT, n: 1 }));
    const calendarCounts = [...(counted.calendar_events ?? []), ...CALENDAR_MONTH_COUNTS];
    this.use(indexCountsMiddleware({ ...counted, calendar_events: calendarCounts }, movedIndexes()));
    this.use(localKeysMiddleware());
    this.use(pendingWritesMiddleware(this.pending, new Set(syncedTableNames)));
  }

  /** Called after a mutation committed (the sync triggers listen here). */
  onMutation(listener: MutationListener): () => void {
    this.mutationListeners.add(listener);
    return () => this.mutationListeners.delete(listener);
  }

  notifyMutation(mutation: OutboxRow): void {
    for (const listener of this.mutationListeners) listener(mutation);
  }
}

/** Every declared table is a typed property of the database (fails to compile when one is missing). */
export type SyncedTableProps = { [N in SyncedTableName]: Table<RowsByTable[N], string> };
export const declaresEverySyncedTable = (db: LinkboardDb): SyncedTableProps => db;

export { dbName };

export function openUserDb(userId: string, options: OpenUserDbOptions = {}): LinkboardDb {
  return new LinkboardDb(userId, options);
}

/** Sign-out deletes the user's database (docs/sync-protocol.md, Client). */
export async function deleteUserDb(userId: string, options: OpenUserDbOptions = {}): Promise<void> {
  await new Dexie(dbName(userId), options).delete();
}
