/** Directory roles as the client knows them (docs/product.md, Roles and permissions): owner, editor, viewer. */
import type { LinkboardTx } from './mutator.ts';
import type { MutationContext } from './mutation-context.ts';
import type { DirectoryRow } from './rows.ts';
import { refuse } from './mutation-error.ts';
import { messages } from '../domain/sync-codes.ts';
import { roleMay, type DirectoryRole } from '../domain/permissions.ts';
import { childrenOf, type SyncedTableName } from './synced-tables.ts';
import type { Touched } from './targets.ts';
import { groupKeys } from './group-range.ts';

export type { DirectoryRole } from '../domain/permissions.ts';

export async function roleIn(
  tx: LinkboardTx,
  directory: DirectoryRow,
  ctx: Pick<MutationContext, 'userId' | 'email'>,
): Promise<DirectoryRole | null> {
  if (directory.owner_id === ctx.userId) return 'owner';
  const email = ctx.email.trim().toLowerCase();
  const members = await tx.directory_members.where('directory_id').equals(directory.id).toArray();
  const mine = members.find((member) => member.user_email === email && !member.deleted_at);
  return mine ? mine.role : null;
}

export async function directoryOrRefuse(tx: LinkboardTx, id: string): Promise<DirectoryRow> {
  const directory = await tx.link_directories.get(id);
  return directory ?? refuse('not_found', messages.directoryNotFound);
}

/** The directory, when the caller may add and edit links in it (owner or editor). */
export async function editableDirectory(tx: LinkboardTx, id: string, ctx: MutationContext): Promise<DirectoryRow> {
  const directory = await directoryOrRefuse(tx, id);
  if (!roleMay('link.update', await roleIn(tx, directory, ctx))) refuse('forbidden', messages.cannotEditLinks);
  return directory;
}

/** The directory, when the caller owns it. */
export async function ownedDirectory(
  tx: LinkboardTx,
  id: string,
  ctx: MutationContext,
  message: string = messages.ownerOnlyDirectory,
): Promise<DirectoryRow> {
  const directory = await directoryOrRefuse(tx, id);
  if (!roleMay('directory.update', directory.owner_id === ctx.userId ? 'owner' : null)) refuse('forbidden', message);
  return directory;
}

/**
 * Deletes rows of `table` and, through the declared purge (synced-tables.ts), every row that
 * goes with them (a directory's links, members and polls, a poll's votes), noting them in
 * `touched`. Used by a delete, a pulled tombstone and a purge alike.
 */
export async function dropRows(
  tx: LinkboardTx,
  table: SyncedTableName,
  ids: readonly string[],
  touched?: Touched,
): Promise<void> {
  if (ids.length === 0) return;
  await tx.table(table).bulkDelete([...ids]);
  for (const id of ids) touched?.noteId(table, id);
  for (const child of childrenOf(table)) {
    const keys = (await groupKeys(tx.table(child.table), child.by, ids)) as string[];
    for (const id of ids) touched?.noteGroup(child.table, child.by, id);
    await dropRows(tx, child.table, keys, touched);
  }
}

/** Drops directories and everything in them (a delete, a tombstone, or a purge). */
export function dropDirectories(tx: LinkboardTx, ids: readonly string[], touched?: Touched): Promise<void> {
  return dropRows(tx, 'link_directories', ids, touched);
}
