/**
 * The typed plan's parser in real Chromium (docs/bench.md): readPlan timed in the page through the
 * bench hook, once per phrase over 200 phrases (the product owner's examples and variants of them,
 * some with text it cannot read), after one untimed pass. Bar: p95 at most 5 ms per phrase. The
 * page's first reading, which compiles the parser's patterns, is reported apart without a bar.
 */
import type { Page } from 'playwright';
import type { Measure } from './stats.ts';

const BASE = [
  'Dentist tomorrow 15:30',
  'Pay rent every month on the 1st',
  'Standup weekdays 9:30 until 31 March',
  'Call Ana in 2 hours',
  'Team lunch friday 12:30-13:30 !high',
  'Submit report next monday p1',
  'Yoga every tuesday and thursday 7am',
  'Holiday 24 Dec to 2 Jan',
  'Buy milk',
  'Gym every tuesday 7am until 30 june',
  'Meeting every 2nd tuesday 10:00',
  'Water plants daily 8:00',
  'Pay bills due friday !low',
  'Party saturday 23:00-04:00',
  'Weekend away 28 Mar to 29 Mar',
  'Review next monday',
  'Backup every week friday 18:00 p1',
  'Night train sunday 2:30',
  'Lunch with the whole team at the new place downtown near the station, bring the slides',
  'Conference 3-5 april in Lisbon p2',
];
const TAILS = [
  '',
  ' please',
  ' !medium',
  ' p3',
  ' (room 4)',
  ' with Ana and Bo',
  ' at the office',
  ' 😀',
  ' #work',
  ' - confirm',
];

/** 200 phrases: each base phrase with each tail. */
export const PLAN_PHRASES = BASE.flatMap((phrase) => TAILS.map((tail) => `${phrase}${tail}`));

export async function readPlanInPage(page: Page, timeZone = 'Europe/Paris'): Promise<Measure[]> {
  await page.waitForFunction(() => window.__linkboardBench !== undefined);
  const { firstMs, samples } = await page.evaluate(
    ([phrases, zone]) => window.__linkboardBench!.readPlanTimes(phrases, zone),
    [PLAN_PHRASES, timeZone] as const,
  );
  return [
    { name: 'typed plan: readPlan per phrase (200 phrases)', unit: 'ms', samples, bar: { p95: 5 } },
    {
      name: "typed plan: a page's first readPlan",
      unit: 'ms',
      samples: [firstMs],
      note: 'compiles the parser; the dialog does it while idle when it opens (no bar)',
    },
  ];
}
