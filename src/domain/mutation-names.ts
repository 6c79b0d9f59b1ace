/** Mutation names of the sync contract (docs/sync-protocol.md): add, never rename. */
export const mutationNames = [
  'profile.update',
  'directory.create',
  'directory.update',
  'directory.delete',
  'link.create',
  'link.update',
  'link.delete',
  'link.set_favorite',
  'member.invite',
  'member.set_role',
  'member.remove',
  'event.create',
  'event.update',
  'event.delete',
  'task.set_completed',
  'series.create',
  'series.replace',
  'series.delete',
  'occurrence.detach',
  'poll.create',
  'poll.vote',
] as const;

export type MutationName = (typeof mutationNames)[number];

export function isMutationName(value: unknown): value is MutationName {
  return typeof value === 'string' && (mutationNames as readonly string[]).includes(value);
}
