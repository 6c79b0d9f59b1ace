import { Dexie } from 'dexie';
import type { Tier } from '../../domain/plans.ts';
import { underLimit } from '../../domain/limits.ts';
import { messages } from '../../domain/sync-codes.ts';
import { TAG_MAX, cleanTags, creationTime, isBlank, normalizeUrl } from '../../domain/validation.ts';
import { directoryRule, roleMay } from '../../domain/permissions.ts';
import { editableDirectory, roleIn } from '../access.ts';
import { keptCount } from '../counts.ts';
import { countKeysOf } from '../index-counts.ts';
import { countedIndexes, movedIndexes } from '../synced-tables.ts';
import type { MutationArgs } from '../../domain/mutation-contract.ts';
import type { MutationContext } from '../mutation-context.ts';
import { MutationError, refuse } from '../mutation-error.ts';
import { present, stamp, type LinkboardTx, type Mutator } from '../mutator.ts';
import type { DirectoryRow, LinkRow } from '../rows.ts';
import { rowTarget } from '../targets.ts';

/**
 * The plan that governs a directory's links is its owner's (docs/product.md, Plans and limits). The client knows only
 * its own tier, so it checks the owner's limits when it is the owner; the server checks always.
 */
function ownerTier(directory: DirectoryRow, ctx: MutationContext): Tier | null {
  return directory.owner_id === ctx.userId ? ctx.tier : null;
}

type LinkFields = MutationArgs['link.update'];

function checkFields<T extends Partial<LinkFields>>(args: T, tier: Tier | null, previous?: LinkRow): T {
  const out = { ...args };
  if (out.url !== undefined) {
    if (isBlank(out.url)) refuse('invalid', messages.linkUrl);
    out.url = normalizeUrl(out.url) ?? refuse('invalid', messages.httpOnly);
  }
  if (out.title !== undefined) {
    if (isBlank(out.title)) refuse('invalid', messages.linkTitle);
    out.title = out.title.trim();
  }
  if (out.notes === '') out.notes = null;
  if (out.description === '') out.description = null;
  if (out.tags !== undefined) {
    out.tags = cleanTags(out.tags);
    if (out.tags.some((tag) => tag.length > TAG_MAX)) refuse('invalid', messages.tagTooLong);
    const changed = !previous || out.tags.join('\u0000') !== previous.tags.join('\u0000');
    if (tier === 'free' && out.tags.length > 0 && changed) refuse('limit_reached', messages.tags);
  }
  return out;
}

async function linkOrRefuse(tx: LinkboardTx, id: string): Promise<LinkRow> {
  return (await tx.saved_links.get(id)) ?? refuse('not_found', messages.linkNotFound);
}

const linkTables = ['link_directories', 'directory_members', 'saved_links'] as const;

const linkRow = (args: { id: string }) => [rowTarget('saved_links', args.id)];

/** The checks of a new link once its directory is known to be editable; `owned`: the owner's links so far. */
function checkCreate(
  args: MutationArgs['link.create'],
  directory: DirectoryRow,
  ctx: MutationContext,
  owned: () => Promise<number> | number,
): Promise<MutationArgs['link.create']> | MutationArgs['link.create'] {
  if (args.url === undefined) refuse('invalid', messages.linkUrl);
  if (args.title === undefined) refuse('invalid', messages.linkTitle);
  const tier = ownerTier(directory, ctx);
  const out = checkFields(args, tier);
  if (out.created_at != null)
    out.created_at = creationTime(out.created_at, ctx.now()) ?? refuse('invalid', messages.creationDate);
  if (out.is_favorite && directoryRule('link.favorite', 'owner', tier) === 'limit_reached') {
    refuse('limit_reached', messages.favourites);
  }
  // Only Free limits links; IndexedDB counts by walking the index, so paid plans skip it.
  if (tier !== 'free') return out;
  const limited = (n: number) => (underLimit(tier, 'links', n) ? out : refuse('limit_reached', messages.moreLinks));
  const count = owned();
  return typeof count === 'number' ? limited(count) : count.then(limited);
}

function newLinkRow(args: MutationArgs['link.create'], directory: DirectoryRow | undefined, ctx: MutationContext) {
  return {
    id: args.id,
    directory_id: args.directory_id,
    url: args.url,
    title: args.title,
    notes: args.notes ?? null,
    description: args.description ?? null,
    tags: args.tags ?? [],
    is_favorite: args.is_favorite ?? false,
    created_by: ctx.userId,
    owner_id: directory?.owner_id ?? ctx.userId,
    ...stamp(ctx),
    // An imported bookmark keeps its ADD_DATE (validate checked and clamped it).
    ...(args.created_at ? { created_at: args.created_at } : {}),
  };
}

const ownedLinks = (tx: LinkboardTx, ownerId: string) => keptCount(tx, 'saved_links', 'owner_id', ownerId);

/**
 * The directory `validate` read, for `apply` in the same transaction (one request fewer a save; a
 * rebase applies without validating, and reads it).
 */
const checkedDirectory = new WeakMap<object, DirectoryRow>();

const countedLinks = { counted: countedIndexes().saved_links ?? [], moved: movedIndexes().saved_links ?? [] };

/**
 * What the new link's write will read (the row it replaces, the counts it arrives at; the owner
 * taken to be the caller), read with its directory: the write and its counts then go together
 * (index-counts.ts, docs/scale.md "Queue 1,000 writes"). A guess that misses is read at the write.
 */
function readAhead(tx: LinkboardTx, args: MutationArgs['link.create'], ctx: MutationContext): Promise<unknown> {
  if (typeof args.id !== 'string' || typeof args.directory_id !== 'string') return Promise.resolve();
  const arriving = { directory_id: args.directory_id, owner_id: ctx.userId };
  const keys = countKeysOf('saved_links', countedLinks.counted, countedLinks.moved, [arriving]);
  return Promise.all([tx.saved_links.get(args.id), tx.counts.bulkGet(keys)]);
}

export const linkCreate: Mutator<'link.create'> = {
  tables: linkTables,
  // apply reads the directory for the link's owner.
  targets: (args) => [rowTarget('saved_links', args.id), rowTarget('link_directories', args.directory_id)],
  async validate(tx, args, ctx) {
    const [directory] = await Promise.all([editableDirectory(tx, args.directory_id, ctx), readAhead(tx, args, ctx)]);
    if (Dexie.currentTransaction) checkedDirectory.set(Dexie.currentTransaction, directory);
    return checkCreate(args, directory, ctx, () => ownedLinks(tx, directory.owner_id));
  },
  /** In the owner's own directory, seen before: the new row (a Free owner's count is the transaction's). */
  predict(args, ctx, known) {
    const directory = known.row('link_directories', args.directory_id) as DirectoryRow | undefined;
    if (!directory || directory.owner_id !== ctx.userId) return null;
    const checked = checkCreate(args, directory, ctx, () => 0);
    if (checked instanceof Promise) return null;
    return [{ table: 'saved_links', key: args.id, row: newLinkRow(checked, directory, ctx) }];
  },
  async apply(tx, args, ctx) {
    const checked = Dexie.currentTransaction ? checkedDirectory.get(Dexie.currentTransaction) : undefined;
    const directory = checked?.id === args.directory_id ? checked : await tx.link_directories.get(args.directory_id);
    await tx.saved_links.put(newLinkRow(args, directory, ctx));
  },
  /**
   * Many new links (an import): each checked as `validate` does, with each directory and the
   * caller's role in it read once and a Free owner's count kept as the links are accepted, then
   * written with one bulkPut (one request per link otherwise, each waiting for the one before).
   */
  async many(tx, list, ctx) {
    const ids = [...new Set(list.map((args) => args.directory_id))];
    const found = await tx.link_directories.bulkGet(ids);
    const editable = new Map<string, DirectoryRow>();
    const exists = new Set(found.flatMap((directory) => (directory ? [directory.id] : [])));
    for (const directory of found) {
      if (directory && roleMay('link.update', await roleIn(tx, directory, ctx))) editable.set(directory.id, directory);
    }
    const counts = new Map<string, number>();
    const rows: ReturnType<typeof newLinkRow>[] = [];
    const out: (MutationArgs['link.create'] | MutationError)[] = [];
    for (const args of list) {
      try {
        const directory =
          editable.get(args.directory_id) ??
          (exists.has(args.directory_id)
            ? refuse('forbidden', messages.cannotEditLinks)
            : refuse('not_found', messages.directoryNotFound));
        const owner = directory.owner_id;
        if (directory.owner_id === ctx.userId && ctx.tier === 'free' && !counts.has(owner))
          counts.set(owner, await ownedLinks(tx, owner));
        // The count is known here, so the checks answer at once: no await per link (Dexie keeps a
        // transaction alive across only so many awaits of plain promises).
        const checked = checkCreate(args, directory, ctx, () => counts.get(owner) ?? 0);
        const normalized = checked instanceof Promise ? await checked : checked;
        counts.set(owner, (counts.get(owner) ?? 0) + 1);
        rows.push(newLinkRow(normalized, directory, ctx));
        out.push(normalized);
      } catch (error) {
        if (!(error instanceof MutationError)) throw error;
        out.push(error);
      }
    }
    await tx.saved_links.bulkPut(rows);
    return out;
  },
};

/** What another URL leaves of the old page's preview: nothing (the server clears it too, rules.sql). */
const NO_PREVIEW = {
  site_name: null,
  icon_url: null,
  image_url: null,
  preview_state: null,
  previewed_at: null,
  broken_at: null,
} as const;

export const linkUpdate: Mutator<'link.update'> = {
  tables: linkTables,
  targets: linkRow,
  async validate(tx, args, ctx) {
    const link = await linkOrRefuse(tx, args.id);
    const directory = await editableDirectory(tx, link.directory_id, ctx);
    return checkFields(args, ownerTier(directory, ctx), link);
  },
  async apply(tx, args, ctx) {
    const changes = present(args, ['url', 'title', 'notes', 'description', 'tags']);
    const link = await tx.saved_links.get(args.id);
    await tx.saved_links.update(args.id, {
      ...changes,
      ...(link && args.url !== undefined && args.url !== link.url ? NO_PREVIEW : {}),
      updated_at: ctx.now().toISOString(),
    });
  },
  /** The fields changed on the row shown (a Free owner's tags are the transaction's to refuse). */
  predict(args, ctx) {
    const changes = present(checkFields(args, null), ['url', 'title', 'notes', 'description', 'tags']);
    const updated_at = ctx.now().toISOString();
    return [
      {
        table: 'saved_links',
        key: args.id,
        update: (row) => ({
          ...row,
          ...changes,
          ...(changes.url !== undefined && changes.url !== row.url ? NO_PREVIEW : {}),
          updated_at,
        }),
      },
    ];
  },
};

export const linkDelete: Mutator<'link.delete'> = {
  tables: linkTables,
  targets: linkRow,
  async validate(tx, args, ctx) {
    const link = await linkOrRefuse(tx, args.id);
    await editableDirectory(tx, link.directory_id, ctx);
    return args;
  },
  async apply(tx, args) {
    await tx.saved_links.delete(args.id);
  },
  predict: (args) => [{ table: 'saved_links', key: args.id, row: null }],
};

export const linkSetFavorite: Mutator<'link.set_favorite'> = {
  tables: linkTables,
  targets: linkRow,
  async validate(tx, args, ctx) {
    const link = await linkOrRefuse(tx, args.id);
    const directory = await editableDirectory(tx, link.directory_id, ctx);
    if (typeof args.value !== 'boolean') refuse('invalid', 'value must be true or false.');
    const rule = directoryRule('link.favorite', 'owner', ownerTier(directory, ctx));
    if (args.value && !link.is_favorite && rule === 'limit_reached') {
      refuse('limit_reached', messages.favourites);
    }
    return args;
  },
  async apply(tx, args, ctx) {
    await tx.saved_links.update(args.id, { is_favorite: args.value, updated_at: ctx.now().toISOString() });
  },
  /** The star on the row shown; a Free owner's new favourite waits for the transaction's check. */
  predict(args, ctx) {
    if (typeof args.value !== 'boolean' || (args.value && ctx.tier === 'free')) return null;
    const changes = { is_favorite: args.value, updated_at: ctx.now().toISOString() };
    return [{ table: 'saved_links', key: args.id, update: (row) => ({ ...row, ...changes }) }];
  },
};
