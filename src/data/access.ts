/** Directory roles as the client knows them (spec 6): owner, editor, viewer. */
import type { LinkboardTx } from './mutator.ts';
import type { MutationContext } from './mutation-context.ts';
import type { DirectoryRow } from './rows.ts';
import { refuse } from './mutation-error.ts';
import { messages } from '../domain/sync-codes.ts';

export type DirectoryRole = 'owner' | 'editor' | 'viewer';

export async function roleIn(
  tx: LinkboardTx,
  directory: DirectoryRow,
  ctx: MutationContext,
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
  const role = await roleIn(tx, directory, ctx);
  if (role !== 'owner' && role !== 'editor') refuse('forbidden', messages.cannotEditLinks);
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
  if (directory.owner_id !== ctx.userId) refuse('forbidden', message);
  return directory;
}

/** Drops a directory and everything in it (a delete, a tombstone, or a purge). */
export async function dropDirectories(tx: LinkboardTx, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const polls = await tx.voting_posts.where('directory_id').anyOf(ids).primaryKeys();
  await Promise.all([
    tx.link_directories.bulkDelete([...ids]),
    tx.saved_links.where('directory_id').anyOf(ids).delete(),
    tx.directory_members.where('directory_id').anyOf(ids).delete(),
    tx.voting_posts.bulkDelete(polls),
    polls.length > 0 ? tx.user_votes.where('post_id').anyOf(polls).delete() : Promise.resolve(0),
  ]);
}
