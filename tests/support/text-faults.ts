/**
 * Text the database cannot store, and every text argument of every mutation: the table the
 * client's refusal (tests/data/unstorable-text.test.ts) and the API's (tests/local) are run over.
 */
import { randomUUID } from 'node:crypto';
import type { MutationName } from '../../src/domain/mutation-contract.ts';

/** A NUL character and a lone surrogate (half of an emoji), each inside otherwise plain text. */
export const FAULTS: [string, string][] = [
  ['a NUL character', 'bad\u0000text'],
  ['a lone surrogate', 'bad\ud800text'],
];
/** What every refusal of such text says. */
export const CLEAR = /^A character in .+ cannot be saved \(a null character or half of an emoji\)\./;

export type Args = Record<string, unknown>;
const FUTURE = '2031-01-01T10:00:00+00:00';
const LATER = '2031-01-01T11:00:00+00:00';

/** Valid args of every mutation (ids made fresh; the push is refused before any row is read). */
export function mutationArgs(): Record<MutationName, Args> {
  const id = randomUUID;
  const occurrence = () => ({ id: id(), title: 'S', description: 'd', starts_at: FUTURE, ends_at: LATER });
  const series = { series_id: id(), rule: 'daily', until: '2031-01-03T00:00:00+00:00', reminder_minutes: 15 };
  return {
    'profile.update': { username: 'someone', bio: 'bio', full_name: 'Name', time_zone: 'Europe/Berlin' },
    'directory.create': { id: id(), name: 'Dir', description: 'd', color: 'green', is_public: true, password: 'pw' },
    'directory.update': { id: id(), name: 'Dir', description: 'd', color: 'blue', password: 'secret' },
    'directory.delete': { id: id() },
    'link.create': {
      id: id(),
      directory_id: id(),
      url: 'https://example.com/a',
      title: 'T',
      notes: 'n',
      description: 'd',
      tags: ['a', 'b'],
      created_at: '2024-05-01T08:00:00+00:00',
    },
    'link.update': { id: id(), url: 'https://example.com/b', title: 'T', notes: 'n', description: 'd', tags: ['a'] },
    'link.delete': { id: id() },
    'link.set_favorite': { id: id(), value: true },
    'member.invite': { id: id(), directory_id: id(), user_email: 'friend@example.com', role: 'viewer' },
    'member.set_role': { id: id(), role: 'editor' },
    'member.remove': { id: id() },
    'event.create': { id: id(), title: 'E', description: 'd', starts_at: FUTURE, ends_at: LATER, is_task: false },
    'event.update': { id: id(), title: 'E', description: 'd', starts_at: FUTURE, ends_at: LATER, priority: 'high' },
    'event.delete': { id: id() },
    'task.set_completed': { id: id(), value: true },
    'series.create': { ...series, occurrences: [occurrence(), occurrence()] },
    'series.replace': { old_series_id: id(), ...series, occurrences: [occurrence()] },
    'series.delete': { series_id: id() },
    'occurrence.detach': { id: id(), title: 'O', description: 'd', starts_at: FUTURE, ends_at: LATER },
    'poll.create': { id: id(), title: 'P', description: 'd', options: ['yes', 'no'], deadline: LATER },
    'poll.vote': { id: id(), post_id: id(), option_index: 0 },
    'poll.create_time': {
      id: id(),
      title: 'P',
      description: 'd',
      deadline: LATER,
      time_zone: 'Europe/London',
      slots: [
        { id: id(), start: FUTURE, minutes: 60 },
        { id: id(), day: '2031-01-02' },
      ],
    },
    'poll.answer': { id: id(), post_id: id(), slot_id: id(), answer: 'yes' },
    'poll.remove_slot': { id: id(), slot_id: id() },
    'poll.pick': { id: id(), slot_id: id(), event_id: id() },
    'invitation.answer': { id: id(), accept: true, event_id: id() },
  };
}

/** Every string in `args` (nested in arrays and objects too), each replaced by `bad` in a copy. */
export function withEachTextReplaced(args: Args, bad: string): { path: string; args: Args }[] {
  const out: { path: string; args: Args }[] = [];
  const walk = (value: unknown, path: string[], replace: (next: unknown) => Args) => {
    if (typeof value === 'string') out.push({ path: path.join('.'), args: replace(bad) });
    else if (Array.isArray(value))
      value.forEach((item, index) =>
        walk(item, [...path, String(index)], (next) => replace(value.map((v, i) => (i === index ? next : v)))),
      );
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value))
        walk(item, [...path, key], (next) => replace({ ...(value as Args), [key]: next }));
  };
  walk(args, [], (next) => next as Args);
  return out;
}
