import { messages } from '../../domain/sync-codes.ts';
import { isEmail, isOneOf, memberRoles } from '../../domain/validation.ts';
import { directoryRule } from '../../domain/permissions.ts';
import { ownedDirectory } from '../access.ts';
import { refuse } from '../mutation-error.ts';
import { stamp, type LinkboardTx, type Mutator } from '../mutator.ts';
import type { MemberRow } from '../rows.ts';
import { rowTarget } from '../targets.ts';

const memberTables = ['link_directories', 'directory_members'] as const;
const memberRow = (args: { id: string }) => [rowTarget('directory_members', args.id)];

async function memberOrRefuse(tx: LinkboardTx, id: string): Promise<MemberRow> {
  return (await tx.directory_members.get(id)) ?? refuse('not_found', messages.memberNotFound);
}

export const memberInvite: Mutator<'member.invite'> = {
  tables: memberTables,
  targets: memberRow,
  async validate(tx, args, ctx) {
    await ownedDirectory(tx, args.directory_id, ctx, messages.ownerOnly);
    if (typeof args.user_email !== 'string' || !isEmail(args.user_email)) refuse('invalid', messages.memberEmail);
    const role = args.role ?? 'viewer';
    if (!isOneOf(memberRoles, role)) refuse('invalid', messages.memberRole);
    // The caller owns the directory: the owner's plan is theirs.
    if (role === 'editor' && directoryRule('member.invite_editor', 'owner', ctx.tier) === 'limit_reached') {
      refuse('limit_reached', messages.editorRole);
    }
    const email = args.user_email.trim().toLowerCase();
    const existing = await tx.directory_members.where('directory_id').equals(args.directory_id).toArray();
    if (existing.some((member) => member.user_email === email && member.id !== args.id)) {
      refuse('conflict', messages.memberExists);
    }
    return { ...args, user_email: email, role };
  },
  async apply(tx, args, ctx) {
    await tx.directory_members.put({
      id: args.id,
      directory_id: args.directory_id,
      user_email: args.user_email,
      role: args.role,
      inviter_id: ctx.userId,
      ...stamp(ctx),
    });
  },
};

export const memberSetRole: Mutator<'member.set_role'> = {
  tables: memberTables,
  targets: memberRow,
  async validate(tx, args, ctx) {
    const member = await memberOrRefuse(tx, args.id);
    await ownedDirectory(tx, member.directory_id, ctx, messages.ownerOnly);
    if (!isOneOf(memberRoles, args.role)) refuse('invalid', messages.memberRole);
    const rule = directoryRule('member.set_role_editor', 'owner', ctx.tier);
    if (args.role === 'editor' && member.role !== 'editor' && rule === 'limit_reached') {
      refuse('limit_reached', messages.editorRole);
    }
    return args;
  },
  async apply(tx, args, ctx) {
    await tx.directory_members.update(args.id, { role: args.role, updated_at: ctx.now().toISOString() });
  },
};

export const memberRemove: Mutator<'member.remove'> = {
  tables: memberTables,
  targets: memberRow,
  async validate(tx, args, ctx) {
    const member = await memberOrRefuse(tx, args.id);
    await ownedDirectory(tx, member.directory_id, ctx, messages.ownerOnly);
    return args;
  },
  async apply(tx, args) {
    await tx.directory_members.delete(args.id);
  },
};
