/**
 * The random mutations of the sync property test (property-helpers.ts): its world (three devices, the
 * mutations queued and answered) and each mutation a device may make, with its weight.
 */
import { mutate } from '../../src/data/mutate.ts';
import { MutationError } from '../../src/data/mutation-error.ts';
import type { MutationArgs, MutationName } from '../../src/domain/mutation-contract.ts';
import type { OutboxRow } from '../../src/data/rows.ts';
import { directoryColors } from '../../src/domain/validation.ts';
import { type Prng } from '../support/prng.ts';
import { type Device, type TestUser } from '../support/sync-harness.ts';

export interface World {
  rng: Prng;
  owner: TestUser;
  guest: TestUser;
  devices: Device[];
  shared: string;
  /** Mutation ids queued by each user (every one must be answered exactly once). */
  queued: Map<string, string[]>;
  /** The last mutations each device queued (newest first). */
  recent: Map<string, OutboxRow[]>;
  log: string[];
}

export type Op = (world: World, device: Device) => Promise<string | null>;

export async function run<N extends MutationName>(world: World, device: Device, name: N, args: MutationArgs[N]) {
  try {
    const row = await mutate(device.db, name, args, device.context(), { id: world.rng.uuid() });
    world.queued.get(device.user.id)!.push(row.id);
    world.recent.set(device.name, [row, ...(world.recent.get(device.name) ?? [])].slice(0, 6));
    return `${name} ${JSON.stringify(args)}`;
  } catch (error) {
    if (error instanceof MutationError) return `${name} refused locally (${error.code})`;
    throw error;
  }
}

export const mutations: [weight: number, op: Op][] = [
  [
    2,
    (w, d) =>
      run(
        w,
        d,
        'profile.update',
        w.rng.chance(0.5) ? { bio: w.rng.word() } : { full_name: w.rng.word(), bio: w.rng.word() },
      ),
  ],
  [
    2,
    (w, d) =>
      run(w, d, 'directory.create', { id: w.rng.uuid(), name: w.rng.word(), color: w.rng.pick(directoryColors) }),
  ],
  [
    2,
    async (w, d) => {
      const mine = await d.db.link_directories.where('owner_id').equals(d.user.id).sortBy('id');
      const dir = w.rng.pick(mine);
      if (!dir) return null;
      return run(
        w,
        d,
        'directory.update',
        w.rng.chance(0.5)
          ? { id: dir.id, name: w.rng.word() }
          : { id: dir.id, description: w.rng.word(), color: w.rng.pick(directoryColors) },
      );
    },
  ],
  [
    8,
    async (w, d) => {
      const dirs = await d.db.link_directories.orderBy('id').toArray();
      const dir = w.rng.chance(0.5) && dirs.some((x) => x.id === w.shared) ? w.shared : w.rng.pick(dirs)?.id;
      if (!dir) return null;
      const title = w.rng.word();
      return run(w, d, 'link.create', {
        id: w.rng.uuid(),
        directory_id: dir,
        url: `https://example.com/${title}`,
        title,
        tags: w.rng.chance(0.3) ? [w.rng.word()] : [],
        is_favorite: w.rng.chance(0.2),
      });
    },
  ],
  [
    5,
    async (w, d) => {
      const link = w.rng.pick(await d.db.saved_links.orderBy('id').toArray());
      if (!link) return null;
      const args: MutationArgs['link.update'] = { id: link.id };
      if (w.rng.chance(0.6)) args.title = w.rng.word();
      if (w.rng.chance(0.4)) args.notes = w.rng.chance(0.2) ? null : w.rng.word();
      if (w.rng.chance(0.3)) args.tags = [w.rng.word(), w.rng.word()];
      return run(w, d, 'link.update', args);
    },
  ],
  [
    2,
    async (w, d) => {
      const link = w.rng.pick(await d.db.saved_links.orderBy('id').toArray());
      return link ? run(w, d, 'link.delete', { id: link.id }) : null;
    },
  ],
  [
    3,
    async (w, d) => {
      const link = w.rng.pick(await d.db.saved_links.orderBy('id').toArray());
      return link ? run(w, d, 'link.set_favorite', { id: link.id, value: w.rng.chance(0.5) }) : null;
    },
  ],
  [
    3,
    (w, d) => {
      const task = w.rng.chance(0.5);
      const start = new Date(Date.UTC(2026, 11, 1 + w.rng.int(28), w.rng.int(24)));
      return run(w, d, 'event.create', {
        id: w.rng.uuid(),
        title: w.rng.word(),
        starts_at: task && w.rng.chance(0.5) ? null : start.toISOString(),
        ends_at: task ? null : new Date(start.getTime() + 3_600_000).toISOString(),
        is_task: task,
        priority: task ? (w.rng.pick(['low', 'medium', 'high'] as const) ?? null) : null,
      });
    },
  ],
  [
    3,
    async (w, d) => {
      const tasks = await d.db.calendar_events
        .orderBy('id')
        .filter((e) => e.is_task)
        .toArray();
      const task = w.rng.pick(tasks);
      return task ? run(w, d, 'task.set_completed', { id: task.id, value: w.rng.chance(0.5) }) : null;
    },
  ],
  [
    2,
    (w, d) => {
      const team = d.user.tier === 'team' && w.rng.chance(0.7);
      return run(w, d, 'poll.create', {
        id: w.rng.uuid(),
        title: w.rng.word(),
        options: Array.from({ length: 2 + w.rng.int(3) }, (_, i) => `option ${i}`),
        directory_id: team ? w.shared : null,
      });
    },
  ],
  [
    4,
    async (w, d) => {
      const mine = (await d.db.voting_posts.orderBy('id').toArray()).filter(
        (poll) =>
          poll.directory_id === w.shared || poll.created_by_id === w.owner.id || poll.created_by_id === w.guest.id,
      );
      const poll = w.rng.pick(mine);
      if (!poll) return null;
      return run(w, d, 'poll.vote', {
        id: w.rng.uuid(),
        post_id: poll.id,
        option_index: w.rng.int(poll.options.length),
      });
    },
  ],
  [
    3,
    (w, d) => {
      // 'Find a time' (docs/product.md): a few slots days ahead, public or in the shared directory.
      const team = d.user.tier === 'team' && w.rng.chance(0.7);
      const first = Date.UTC(2031, 0, 1 + w.rng.int(28), 9);
      return run(w, d, 'poll.create_time', {
        id: w.rng.uuid(),
        title: w.rng.word(),
        time_zone: 'Europe/Lisbon',
        directory_id: team ? w.shared : null,
        slots: Array.from({ length: 2 + w.rng.int(3) }, (_, i) =>
          w.rng.chance(0.2)
            ? { id: w.rng.uuid(), day: new Date(first + i * 86_400_000).toISOString().slice(0, 10) }
            : { id: w.rng.uuid(), start: new Date(first + i * 3_600_000).toISOString(), minutes: 60 },
        ),
      });
    },
  ],
  [
    8,
    async (w, d) => {
      // One slot's answer, on the voter's one row for the poll (the row already on the device, else a new id):
      // two devices of one user answering offline end in one row on the server, every answer counted once.
      const polls = (await d.db.voting_posts.orderBy('id').toArray()).filter((poll) => poll.kind === 'time');
      const poll = w.rng.pick(polls);
      const slot = poll && w.rng.pick(poll.options);
      if (!poll || !slot?.id) return null;
      const mine = await d.db.slot_answers.where('[post_id+user_id]').equals([poll.id, d.user.id]).first();
      return run(w, d, 'poll.answer', {
        id: mine?.id ?? w.rng.uuid(),
        post_id: poll.id,
        slot_id: slot.id,
        answer: w.rng.pick(['yes', 'maybe', 'no'] as const)!,
      });
    },
  ],
  [
    1,
    (w, d) =>
      d.user.id === w.owner.id
        ? run(w, d, 'member.invite', {
            id: w.rng.uuid(),
            directory_id: w.shared,
            user_email: `guest-${w.rng.int(4)}-${w.rng.seed}@example.com`,
            role: 'viewer',
          })
        : Promise.resolve(null),
  ],
];

/** Edits again a link this device changed lately (same row, several queued changes). */
export async function editRecent(world: World, device: Device): Promise<string | null> {
  const recent = [...(await device.db.outbox.orderBy('seq').toArray())]
    .reverse()
    .concat(world.recent.get(device.name) ?? [])
    .filter((m) => m.name.startsWith('link.') && m.name !== 'link.delete')
    .map((m) => String(m.args.id));
  for (const id of recent) {
    if (!(await device.db.saved_links.get(id))) continue;
    return world.rng.chance(0.7)
      ? run(world, device, 'link.update', { id, title: world.rng.word(), notes: world.rng.word() })
      : run(world, device, 'link.set_favorite', { id, value: world.rng.chance(0.5) });
  }
  return null;
}
