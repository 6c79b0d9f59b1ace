/** Every mutation of the contract has a client mutator (docs/sync-protocol.md). */
import type { MutationName } from '../domain/mutation-contract.ts';
import type { Mutator, MutatorRegistry } from './mutator.ts';
import { registerMutators } from './mutator-registry.ts';
import { directoryCreate, directoryDelete, directoryUpdate } from './mutators/directories.ts';
import { eventCreate, eventDelete, eventUpdate, taskSetCompleted } from './mutators/events.ts';
import { linkCreate, linkDelete, linkSetFavorite, linkUpdate } from './mutators/links.ts';
import { memberInvite, memberRemove, memberSetRole } from './mutators/members.ts';
import { pollCreate, pollVote } from './mutators/polls.ts';
import { invitationAnswer, pollAnswer, pollCreateTime, pollPick, pollRemoveSlot } from './mutators/time-polls.ts';
import { profileUpdate } from './mutators/profile.ts';
import { occurrenceDetach, seriesCreate, seriesDelete, seriesReplace } from './mutators/series.ts';

export const mutators: MutatorRegistry = {
  'profile.update': profileUpdate,
  'directory.create': directoryCreate,
  'directory.update': directoryUpdate,
  'directory.delete': directoryDelete,
  'link.create': linkCreate,
  'link.update': linkUpdate,
  'link.delete': linkDelete,
  'link.set_favorite': linkSetFavorite,
  'member.invite': memberInvite,
  'member.set_role': memberSetRole,
  'member.remove': memberRemove,
  'event.create': eventCreate,
  'event.update': eventUpdate,
  'event.delete': eventDelete,
  'task.set_completed': taskSetCompleted,
  'series.create': seriesCreate,
  'series.replace': seriesReplace,
  'series.delete': seriesDelete,
  'occurrence.detach': occurrenceDetach,
  'poll.create': pollCreate,
  'poll.vote': pollVote,
  'poll.create_time': pollCreateTime,
  'poll.answer': pollAnswer,
  'poll.remove_slot': pollRemoveSlot,
  'poll.pick': pollPick,
  'invitation.answer': invitationAnswer,
};

/** The mutator of `name`, widened for callers that hold a stored (untyped) outbox row. */
export function mutatorOf(name: MutationName): Mutator<MutationName> {
  return mutators[name] as unknown as Mutator<MutationName>;
}

registerMutators(mutators);
