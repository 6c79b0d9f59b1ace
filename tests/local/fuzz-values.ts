/**
 * The inputs of the fuzz over HTTP (fuzz.test.ts): the fixtures every mutation's valid arguments
 * name, junk values, the wrong types and oversized values of an argument, and the random
 * perturbation of valid arguments; what a failure records.
 */
import { type MutationName } from '../../src/domain/mutation-contract.ts';
import { type Prng } from '../support/prng.ts';

export type Args = Record<string, unknown>;

export interface Fixtures {
  ownerId: string;
  memberId: string;
  directory: string;
  link: string;
  member: string;
  event: string;
  task: string;
  series: string;
  occurrence: string;
  poll: string;
  timePoll: string;
  slot: string;
}

export const FUTURE = '2031-01-01T10:00:00.000Z';
export const LATER = '2031-01-01T11:00:00.000Z';
export const UNTIL = '2031-01-10T00:00:00.000Z';
export const HUGE = 'x'.repeat(300_000);

export function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { k: value };
  return value;
}

/** Values of every JSON type and shape that a careless or hostile client might send. */
export function junkValues(prng: Prng): unknown[] {
  return [
    null,
    true,
    false,
    0,
    -1,
    0.5,
    1e308,
    -2147483649,
    '',
    ' ',
    prng.word(),
    'ÿ€😀\u202e',
    "' or 1=1 --",
    '%s%n\\',
    '2020-13-45T99:99:99Z',
    'infinity',
    prng.uuid(),
    '00000000-0000-0000-0000-000000000000',
    'not-a-uuid',
    [],
    [1, 'a', null],
    {},
    { a: { b: [1, { c: 'd' }] } },
    nested(20),
    'y'.repeat(100_000),
    'a\u0000b',
  ];
}

/** Valid args for each mutation, against the fixtures (fresh ids for what a mutation creates). */
export function baseArgs(f: Fixtures, prng: Prng): Record<MutationName, Args> {
  const occurrence = () => ({ id: prng.uuid(), title: 'S', description: null, starts_at: FUTURE, ends_at: LATER });
  return {
    'profile.update': { username: `fz_${prng.int(1e6)}`, bio: 'bio', full_name: 'Name', time_zone: 'UTC' },
    'directory.create': {
      id: prng.uuid(),
      name: 'Dir',
      description: 'd',
      color: 'green',
      is_public: true,
      password: 'pw',
    },
    'directory.update': {
      id: f.directory,
      name: 'Dir2',
      description: 'd',
      color: 'blue',
      is_public: true,
      password: 'secret',
    },
    'directory.delete': { id: f.directory },
    'link.create': {
      id: prng.uuid(),
      directory_id: f.directory,
      url: 'https://fuzz.example/a',
      title: 'T',
      notes: 'n',
      description: 'd',
      tags: ['a'],
      is_favorite: false,
    },
    'link.update': {
      id: f.link,
      url: 'https://fuzz.example/b',
      title: 'T2',
      notes: 'n',
      description: 'd',
      tags: ['b'],
    },
    'link.delete': { id: f.link },
    'link.set_favorite': { id: f.link, value: true },
    'member.invite': {
      id: prng.uuid(),
      directory_id: f.directory,
      user_email: `fz${prng.int(1e6)}@example.com`,
      role: 'viewer',
    },
    'member.set_role': { id: f.member, role: 'viewer' },
    'member.remove': { id: f.member },
    'event.create': {
      id: prng.uuid(),
      title: 'E',
      description: 'd',
      starts_at: FUTURE,
      ends_at: LATER,
      is_task: false,
      priority: 'low',
    },
    'event.update': { id: f.event, title: 'E2', description: 'd', starts_at: FUTURE, ends_at: LATER, priority: 'high' },
    'event.delete': { id: f.event },
    'task.set_completed': { id: f.task, value: true },
    'series.create': { series_id: prng.uuid(), rule: 'daily', until: UNTIL, occurrences: [occurrence()] },
    'series.replace': {
      old_series_id: f.series,
      series_id: prng.uuid(),
      rule: 'weekly',
      until: UNTIL,
      occurrences: [occurrence()],
    },
    'series.delete': { series_id: f.series },
    'occurrence.detach': { id: f.occurrence, title: 'D', description: 'd', starts_at: FUTURE, ends_at: LATER },
    'poll.create': {
      id: prng.uuid(),
      title: 'P',
      description: 'd',
      options: ['a', 'b'],
      deadline: UNTIL,
      directory_id: f.directory,
    },
    'poll.vote': { id: prng.uuid(), post_id: f.poll, option_index: 0 },
    'poll.create_time': {
      id: prng.uuid(),
      title: 'P',
      description: 'd',
      deadline: UNTIL,
      directory_id: f.directory,
      time_zone: 'UTC',
      slots: [
        { id: prng.uuid(), start: FUTURE, minutes: 60 },
        { id: prng.uuid(), day: '2031-01-02' },
      ],
    },
    'poll.answer': { id: prng.uuid(), post_id: f.timePoll, slot_id: f.slot, answer: 'yes' },
    'poll.remove_slot': { id: f.timePoll, slot_id: f.slot },
    'poll.pick': { id: f.timePoll, slot_id: f.slot, event_id: prng.uuid() },
    'invitation.answer': { id: prng.uuid(), accept: true, event_id: prng.uuid() },
  };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Non-null values of the wrong type (or too long) for an argument, judged by its valid value. */
export function wrongValues(valid: unknown): unknown[] {
  if (typeof valid === 'boolean') return ['true', 1, {}, [true]];
  if (typeof valid === 'number') return ['0', {}, true, 0.5, 1e12];
  if (Array.isArray(valid)) {
    if (typeof valid[0] === 'string') return ['a', {}, 5, [1, 2], [{ t: 1 }], [HUGE, 'b']];
    return ['x', {}, 5, [1], [{ id: 5, title: 'S' }], [{ ...(valid[0] as Args), title: { t: 1 } }]];
  }
  if (typeof valid === 'string' && UUID.test(valid)) return [42, { id: valid }, 'not-a-uuid', true, [valid]];
  if (typeof valid === 'string' && /^\d{4}-\d\d-\d\dT/.test(valid)) return [5, {}, 'not a date', true, HUGE];
  return [42, true, { t: 1 }, ['a'], HUGE];
}

/** Valid args as they are (a third of the time), or perturbed: fields dropped, replaced or added, or all junk. */
export function perturb(prng: Prng, args: Args, junk: unknown[]): unknown {
  const roll = prng.int(12);
  if (roll === 0) return prng.pick(junk);
  const out: Args = { ...args };
  const keys = Object.keys(out);
  if (roll <= 4) return out;
  for (let i = 0, n = 1 + prng.int(2); i < n; i += 1) {
    const key = prng.pick(keys) ?? 'id';
    if (prng.chance(0.4)) delete out[key];
    else out[key] = prng.pick(junk);
  }
  if (prng.chance(0.2)) out[prng.word()] = prng.pick(junk);
  return out;
}

export interface Failure {
  caller: string;
  fn: string;
  body: string;
  status: number;
  answer: string;
}

export const short = (text: string, n = 240) =>
  text.length > n ? `${text.slice(0, n)}… (${text.length} chars)` : text;
