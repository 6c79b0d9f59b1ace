import { messages } from '../../domain/sync-codes.ts';
import { underLimit } from '../../domain/limits.ts';
import { directoryColors, isBlank, isOneOf } from '../../domain/validation.ts';
import { dropDirectories, ownedDirectory } from '../access.ts';
import type { MutationArgs } from '../../domain/mutation-contract.ts';
import type { MutationContext } from '../mutation-context.ts';
import { refuse } from '../mutation-error.ts';
import { present, stamp, type Mutator } from '../mutator.ts';
import { groupTarget, rowTarget } from '../targets.ts';

type DirectoryFields = MutationArgs['directory.update'];

function checkFields<T extends Partial<DirectoryFields>>(args: T, ctx: MutationContext): T {
  const out = { ...args };
  if (out.name !== undefined) {
    if (isBlank(out.name)) refuse('invalid', messages.directoryName);
    out.name = out.name.trim();
  }
  if (out.color !== undefined && !isOneOf(directoryColors, out.color)) refuse('invalid', messages.directoryColor);
  if (out.description === '') out.description = null;
  if (out.password === '') out.password = null;
  if (out.password != null && ctx.tier === 'free') refuse('limit_reached', messages.passwords);
  return out;
}

const directoryRow = (args: { id: string }) => [rowTarget('link_directories', args.id)];

export const directoryCreate: Mutator<'directory.create'> = {
  tables: ['link_directories'],
  targets: directoryRow,
  async validate(tx, args, ctx) {
    if (args.name === undefined) refuse('invalid', messages.directoryName);
    const out = checkFields(args, ctx);
    const owned = await tx.link_directories.where('owner_id').equals(ctx.userId).count();
    if (!underLimit(ctx.tier, 'directories', owned)) refuse('limit_reached', messages.moreDirectories);
    return out;
  },
  async apply(tx, args, ctx) {
    const isPublic = args.is_public ?? false;
    await tx.link_directories.put({
      id: args.id,
      name: args.name,
      description: args.description ?? null,
      color: args.color ?? 'blue',
      is_public: isPublic,
      has_password: isPublic && args.password != null,
      owner_id: ctx.userId,
      ...stamp(ctx),
    });
  },
};

export const directoryUpdate: Mutator<'directory.update'> = {
  tables: ['link_directories'],
  targets: directoryRow,
  async validate(tx, args, ctx) {
    await ownedDirectory(tx, args.id, ctx);
    return checkFields(args, ctx);
  },
  async apply(tx, args, ctx) {
    const current = await tx.link_directories.get(args.id);
    if (!current) return;
    const changes = present(args, ['name', 'description', 'color', 'is_public']);
    const isPublic = changes.is_public ?? current.is_public;
    let hasPassword = current.has_password;
    if (args.password !== undefined) hasPassword = args.password !== null;
    if (!isPublic) hasPassword = false;
    await tx.link_directories.update(args.id, {
      ...changes,
      has_password: hasPassword,
      updated_at: ctx.now().toISOString(),
    });
  },
};

export const directoryDelete: Mutator<'directory.delete'> = {
  tables: ['link_directories', 'saved_links', 'directory_members', 'voting_posts', 'user_votes', 'slot_answers'],
  // The directory and its content (a poll's votes go with the poll, which is in the directory).
  targets: (args) => [
    rowTarget('link_directories', args.id),
    groupTarget('saved_links', 'directory_id', args.id),
    groupTarget('directory_members', 'directory_id', args.id),
    groupTarget('voting_posts', 'directory_id', args.id),
  ],
  async validate(tx, args, ctx) {
    await ownedDirectory(tx, args.id, ctx);
    return args;
  },
  async apply(tx, args) {
    await dropDirectories(tx, [args.id]);
  },
};
