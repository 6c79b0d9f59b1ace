/**
 * Sample args of every mutation of the contract, over a few fixture rows, and the rows each
 * mutator must declare as its targets (src/data/targets.ts). Run by tests/data/targets.test.ts
 * against the client's mutators and by tests/db/touched-targets.test.ts against the server's
 * touched rule (private.sync_touched).
 */
import type { MutationArgs, MutationName } from '../../src/domain/mutation-contract.ts';
import { groupTarget, rowTarget, type Target } from '../../src/data/targets.ts';
import {
  ME,
  makeDirectory,
  makeEvent,
  makeInvitation,
  makeLink,
  makeMember,
  makePoll,
  makeTimePoll,
  uuid,
} from '../support/builders.ts';

export const dir = makeDirectory({ owner_id: ME });
export const link = makeLink({ directory_id: dir.id });
export const member = makeMember({ directory_id: dir.id });
export const event = makeEvent();
export const seriesId = uuid();
export const seriesEvents = [makeEvent({ series_id: seriesId }), makeEvent({ series_id: seriesId })];
export const poll = makePoll({ directory_id: dir.id });
/** The user's own team 'Find a time' poll, and a pending invitation of theirs to another poll's time. */
export const timePoll = makeTimePoll({
  directory_id: dir.id,
  created_by_id: ME,
  created_by: 'me',
  // Slot ids as the app makes them (uuids: the server refuses others), days ahead of any test run.
  options: [
    { id: uuid(), text: '', votes: 0, start: '2031-03-16T09:00:00.000Z', minutes: 60, day: null, yes: 0, maybe: 0 },
    { id: uuid(), text: '', votes: 0, start: '2031-03-17T14:00:00.000Z', minutes: 60, day: null, yes: 0, maybe: 0 },
    { id: uuid(), text: '', votes: 0, start: null, minutes: null, day: '2031-03-18', yes: 0, maybe: 0 },
  ],
});
const slot = (index: number) => timePoll.options[index]!.id!;
export const invitation = makeInvitation();
const occurrence = (id = uuid()) => ({
  id,
  title: 'Yoga',
  description: null,
  starts_at: '2026-03-20T09:00:00.000Z',
  ends_at: '2026-03-20T10:00:00.000Z',
});
const newIds = {
  directory: uuid(),
  link: uuid(),
  member: uuid(),
  event: uuid(),
  poll: uuid(),
  vote: uuid(),
  answers: uuid(),
  slots: [uuid(), uuid()],
  pickedEvent: uuid(),
  acceptedEvent: uuid(),
};
const occurrenceIds = [uuid(), uuid()];

/** Sample args of every mutation, over the fixtures above, and what each must declare. */
export const cases: { [N in MutationName]: { args: MutationArgs[N]; targets: Target[] } } = {
  'profile.update': { args: { bio: 'Hi' }, targets: [rowTarget('user_profiles', ME)] },
  'directory.create': {
    args: { id: newIds.directory, name: 'New' },
    targets: [rowTarget('link_directories', newIds.directory)],
  },
  'directory.update': { args: { id: dir.id, name: 'Renamed' }, targets: [rowTarget('link_directories', dir.id)] },
  'directory.delete': {
    args: { id: dir.id },
    targets: [
      rowTarget('link_directories', dir.id),
      groupTarget('saved_links', 'directory_id', dir.id),
      groupTarget('directory_members', 'directory_id', dir.id),
      groupTarget('voting_posts', 'directory_id', dir.id),
    ],
  },
  'link.create': {
    args: { id: newIds.link, directory_id: dir.id, url: 'https://b.test', title: 'B' },
    targets: [rowTarget('saved_links', newIds.link), rowTarget('link_directories', dir.id)],
  },
  'link.update': { args: { id: link.id, title: 'T' }, targets: [rowTarget('saved_links', link.id)] },
  'link.delete': { args: { id: link.id }, targets: [rowTarget('saved_links', link.id)] },
  'link.set_favorite': { args: { id: link.id, value: true }, targets: [rowTarget('saved_links', link.id)] },
  'member.invite': {
    args: { id: newIds.member, directory_id: dir.id, user_email: 'new@example.com', role: 'viewer' },
    targets: [rowTarget('directory_members', newIds.member)],
  },
  'member.set_role': { args: { id: member.id, role: 'editor' }, targets: [rowTarget('directory_members', member.id)] },
  'member.remove': { args: { id: member.id }, targets: [rowTarget('directory_members', member.id)] },
  'event.create': {
    args: { id: newIds.event, title: 'E', starts_at: null, ends_at: null, is_task: true },
    targets: [rowTarget('calendar_events', newIds.event)],
  },
  'event.update': { args: { id: event.id, title: 'E2' }, targets: [rowTarget('calendar_events', event.id)] },
  'event.delete': { args: { id: event.id }, targets: [rowTarget('calendar_events', event.id)] },
  'task.set_completed': { args: { id: event.id, value: true }, targets: [rowTarget('calendar_events', event.id)] },
  'series.create': {
    args: {
      series_id: uuid(),
      rule: 'daily',
      until: '2026-03-21T00:00:00.000Z',
      occurrences: occurrenceIds.map((id) => occurrence(id)),
    },
    targets: occurrenceIds.map((id) => rowTarget('calendar_events', id)),
  },
  'series.replace': {
    args: {
      old_series_id: seriesId,
      series_id: uuid(),
      rule: 'daily',
      until: '2026-03-21T00:00:00.000Z',
      occurrences: occurrenceIds.map((id) => occurrence(id)),
    },
    targets: [
      groupTarget('calendar_events', 'series_id', seriesId),
      ...occurrenceIds.map((id) => rowTarget('calendar_events', id)),
    ],
  },
  'series.delete': { args: { series_id: seriesId }, targets: [groupTarget('calendar_events', 'series_id', seriesId)] },
  'occurrence.detach': {
    args: { id: seriesEvents[0]!.id, title: 'Moved' },
    targets: [rowTarget('calendar_events', seriesEvents[0]!.id)],
  },
  'poll.create': {
    args: { id: newIds.poll, title: 'P', options: ['a', 'b'] },
    targets: [rowTarget('voting_posts', newIds.poll)],
  },
  'poll.vote': {
    args: { id: newIds.vote, post_id: poll.id, option_index: 1 },
    targets: [rowTarget('user_votes', newIds.vote), rowTarget('voting_posts', poll.id)],
  },
  'poll.create_time': {
    args: {
      id: newIds.poll,
      title: 'When?',
      time_zone: 'Europe/London',
      slots: [
        { id: newIds.slots[0]!, start: '2026-04-01T09:00:00.000Z', minutes: 60 },
        { id: newIds.slots[1]!, day: '2026-04-02' },
      ],
    },
    targets: [rowTarget('voting_posts', newIds.poll)],
  },
  'poll.answer': {
    args: { id: newIds.answers, post_id: timePoll.id, slot_id: slot(0), answer: 'yes' },
    targets: [
      rowTarget('slot_answers', newIds.answers),
      groupTarget('slot_answers', 'post_id', timePoll.id),
      rowTarget('voting_posts', timePoll.id),
    ],
  },
  'poll.remove_slot': {
    args: { id: timePoll.id, slot_id: slot(1) },
    targets: [rowTarget('voting_posts', timePoll.id), groupTarget('slot_answers', 'post_id', timePoll.id)],
  },
  'poll.pick': {
    args: { id: timePoll.id, slot_id: slot(0), event_id: newIds.pickedEvent },
    targets: [rowTarget('voting_posts', timePoll.id), rowTarget('calendar_events', newIds.pickedEvent)],
  },
  'invitation.answer': {
    args: { id: invitation.id, accept: true, event_id: newIds.acceptedEvent },
    targets: [rowTarget('event_invitations', invitation.id), rowTarget('calendar_events', newIds.acceptedEvent)],
  },
};
