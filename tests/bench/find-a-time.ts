/**
 * 'Find a time' (docs/bench.md, find-a-time; docs/product.md, Find a time): on a directory's Team
 * Polls tab, a team time poll of 20 slots answered by 10 voters (the user the first of them); the
 * click on one of the user's answers until the slot's row shows it pressed, its new Yes and If
 * need be counts and the answer in the user's column of the grid.
 *
 * The poll and its answers are written into the page's IndexedDB through the bench hook (they stay
 * local: the rows are the server's in shape, txid and all), and the context is offline while the
 * samples run, so each answer stays queued: no server part is needed to store a time poll.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import { HAND_CLICK, hook, openDirectory, probeResult, probeStart, run, signIn, waitFor } from './browser.ts';
import { painted, type Plan } from './measures.ts';
import { seedDirectory, signUp } from './setup.ts';
import type { Measure } from './stats.ts';

const SLOTS = 20;
const VOTERS = 10;
const ANSWERS = ['yes', 'maybe', 'no'] as const;
type Answer = (typeof ANSWERS)[number];
const LABELS: Record<Answer, string> = { yes: 'Yes', maybe: 'If need be', no: 'No' };
const TITLE = 'Planning meeting';

interface Seed {
  /** Slot ids, earliest first (the table's rows). */
  slots: string[];
  /** The server's counts, the user's answers included. */
  yes: number[];
  maybe: number[];
  /** The user's answers as the server holds them. */
  mine: Record<string, Answer>;
}

/** A day from tomorrow, one slot an hour from 09:00, answered by each voter by a fixed pattern. */
function seedRows(userId: string, username: string, directoryId: string) {
  const stamp = new Date().toISOString();
  const day = new Date(Date.now() + 86_400_000);
  day.setUTCHours(9, 0, 0, 0);
  const slots = Array.from({ length: SLOTS }, () => randomUUID());
  const voters = Array.from({ length: VOTERS }, (_, index) => (index === 0 ? userId : randomUUID()));
  const answerOf = (voter: number, slot: number): Answer => ANSWERS[(voter + slot) % 3]!;
  const yes = slots.map((_, slot) => voters.filter((_, voter) => answerOf(voter, slot) === 'yes').length);
  const maybe = slots.map((_, slot) => voters.filter((_, voter) => answerOf(voter, slot) === 'maybe').length);
  const postId = randomUUID();
  const poll = {
    id: postId,
    title: TITLE,
    description: null,
    options: slots.map((id, index) => ({
      id,
      text: '',
      votes: yes[index],
      start: new Date(day.getTime() + index * 3_600_000).toISOString(),
      minutes: 60,
      day: null,
      yes: yes[index],
      maybe: maybe[index],
    })),
    deadline: null,
    directory_id: directoryId,
    created_by: 'someone',
    created_by_id: randomUUID(),
    is_active: true,
    kind: 'time',
    time_zone: 'UTC',
    picked_slot_id: null,
    picked_event_id: null,
    pick_count: 0,
    created_at: stamp,
    updated_at: stamp,
    txid: '1',
  };
  const rows = voters.map((voter, index) => ({
    id: randomUUID(),
    post_id: postId,
    user_id: voter,
    directory_id: directoryId,
    voter_name: index === 0 ? username : `voter${index}`,
    answers: Object.fromEntries(slots.map((slot, s) => [slot, answerOf(index, s)])),
    // Oldest first: the user's column is the grid's first.
    created_at: new Date(Date.now() - (VOTERS - index) * 1000).toISOString(),
    updated_at: stamp,
    txid: '1',
  }));
  const seed: Seed = { slots, yes, maybe, mine: rows[0]!.answers as Record<string, Answer> };
  return { poll, rows, seed };
}

/** What the row shows after the user's answers `now` over the server's `seed` (counted once). */
function expected(seed: Seed, now: Record<string, Answer>, slot: number) {
  const id = seed.slots[slot]!;
  const shift = (answer: Answer) => (now[id] === answer ? 1 : 0) - (seed.mine[id] === answer ? 1 : 0);
  return { yes: seed.yes[slot]! + shift('yes'), maybe: seed.maybe[slot]! + shift('maybe') };
}

async function answerOnce(page: Page, seed: Seed, now: Record<string, Answer>, slot: number, queued: number) {
  const id = seed.slots[slot]!;
  const current = now[id]!;
  const next = ANSWERS[(ANSWERS.indexOf(current) + 1) % 3]!;
  now[id] = next;
  const { yes, maybe } = expected(seed, now, slot);
  const button = page.locator('table tbody tr').nth(slot).getByRole('button', { name: LABELS[next], exact: true });
  await button.scrollIntoViewIfNeeded();
  await probeStart(page, 'answer', { event: 'click', check: 'slotAnswered', args: [slot, LABELS[next], yes, maybe] });
  await button.click(HAND_CLICK);
  const ms = painted(await probeResult(page, 'answer'), `answer ${LABELS[next]} to slot ${slot + 1}`);
  // The transaction has committed (the outbox holds the answer) before the next click.
  await waitFor(page, `${hook('counts()')}.then((counts) => counts.outbox >= ${queued})`);
  return ms;
}

export async function findATimeMeasures(stack: RunningStack, context: BrowserContext, plan: Plan): Promise<Measure> {
  const account = await signUp(stack, 'findtime', 'team');
  const directoryId = await seedDirectory(stack, account, 'Find a time', 1);
  const page = await signIn(context, account, 1);
  const { poll, rows, seed } = seedRows(account.id, account.username, directoryId);
  await run(page, hook(`put('voting_posts', ${JSON.stringify([poll])})`));
  await run(page, hook(`put('slot_answers', ${JSON.stringify(rows)})`));
  await openDirectory(page, account, directoryId);
  // The Team Polls panel's code is loaded with the first tab, online (the service worker may not
  // have cached it yet); the answers are then given offline.
  await page.getByRole('tab', { name: 'Team Polls' }).click();
  await page.getByRole('table', { name: TITLE }).waitFor({ timeout: 60_000 });
  await page.getByRole('columnheader', { name: `voter${VOTERS - 1}` }).waitFor({ timeout: 60_000 });
  await context.setOffline(true);
  try {
    const now = { ...seed.mine };
    const samples: number[] = [];
    const rounds = plan.warmups + plan.samples;
    for (let i = 0; i < rounds; i += 1) {
      const ms = await answerOnce(page, seed, now, (i * 7) % SLOTS, i + 1);
      if (i >= plan.warmups) samples.push(ms);
    }
    return {
      name: 'time poll answer → grid painted',
      unit: 'ms',
      samples,
      bar: { median: 16 },
      note: `a team time poll of ${SLOTS} slots and ${VOTERS} voters on the Team Polls tab, offline (answers queued); the click on one of the user's answers until its row shows it pressed, the new Yes and If need be counts and the user's grid cell; the poll seeded into IndexedDB through the bench hook`,
    };
  } finally {
    await context.setOffline(false);
  }
}
