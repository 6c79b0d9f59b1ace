/**
 * Links with words (the search-scale bench, docs/bench.md): titles, addresses, tags and notes
 * drawn from a vocabulary of a few hundred real words, the same for a link number on every run,
 * so the bench can say in Node which link a search lists first (the app's own rule:
 * src/features/links/link-filters.ts, searchList).
 */
import type { LinkRow } from '../../src/data/rows.ts';

const VOCABULARY = `
apple baking banana bread budget butter cake camera camping carrot cheese chicken chocolate coffee cookie
curry dinner dough garden garlic ginger grill herbs honey kitchen lemon lunch mango noodle oven pasta pepper
pizza potato pumpkin recipe rice salad salmon sauce soup spice spinach steak sugar tomato vegan waffle
algorithm analytics android api architecture async backend benchmark binary browser cache cluster compiler
container css database debugging deploy design docker editor encryption framework frontend function git
golang graphql hooks http index interface javascript kernel kotlin kubernetes lambda latency library linux
memory migration mobile module network node observability parser performance postgres python query queue
react redis refactoring release router rust scaling schema security server shell sql storage streaming
swift terminal testing thread typescript vector webassembly websocket workflow
adventure airport beach berlin bicycle canyon castle coast desert festival forest glacier harbor hiking
island journey kyoto lagoon lisbon london madrid market mountain museum nairobi oslo paris prague river
road rome sahara santiago seoul sunset temple tokyo trail train valley vienna village volcano
album ballad band cinema concert documentary drama drums festival guitar jazz lyrics melody movie novel
opera orchestra painting piano playlist podcast poetry portrait sculpture series singer soundtrack studio
theater trilogy violin
budgeting career contract credit economy finance income insurance interest investing invoice loan mortgage
pension retirement salary savings startup stocks tax
anxiety breathing cardio diet fitness habits health marathon meditation nutrition running sleep stretching
swimming therapy walking wellness workout yoga
beginner guide handbook howto introduction lesson manual notes overview primer reference tutorial tips
checklist cheatsheet comparison deep dive explained review roadmap update weekly annual
`
  .trim()
  .split(/\s+/);

const HOSTS = [
  'github.com',
  'docs.python.org',
  'developer.mozilla.org',
  'stackoverflow.com',
  'en.wikipedia.org',
  'medium.com',
  'news.ycombinator.com',
  'youtube.com',
  'nytimes.com',
  'bbc.co.uk',
  'seriouseats.com',
  'bonappetit.com',
  'lonelyplanet.com',
  'atlasobscura.com',
  'arxiv.org',
  'dev.to',
  'blog.rust-lang.org',
  'kubernetes.io',
  'react.dev',
  'postgresql.org',
  'theguardian.com',
  'economist.com',
  'investopedia.com',
  'healthline.com',
  'runnersworld.com',
  'pitchfork.com',
  'imdb.com',
  'goodreads.com',
  'reddit.com',
  'substack.com',
  'café-crème.example',
  'münchen.example',
];

const TAGS = [
  'reading',
  'later',
  'work',
  'cooking',
  'travel',
  'music',
  'film',
  'money',
  'health',
  'dev',
  'frontend',
  'backend',
  'ops',
  'ideas',
  'research',
  'shopping',
  'family',
  'weekend',
  'inspiration',
  'reference',
];

/** A small fast generator of numbers in [0, 1) from a seed (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
const words = (next: () => number, count: number) => Array.from({ length: count }, () => pick(next, VOCABULARY));
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** What a seeded link holds (i = 1 the newest). */
export interface WordLink {
  title: string;
  url: string;
  tags: string[];
  notes: string | null;
}

/** Link number `i`'s fields: a title of 3 to 7 words, an address of a real-looking host and path, 0 to 2 tags, sometimes notes. */
export function wordLink(i: number): WordLink {
  const next = random(Math.imul(i, 2654435761) ^ 0x9e3779b9);
  const title = words(next, 3 + Math.floor(next() * 5));
  const slug = words(next, 1 + Math.floor(next() * 3)).join('-');
  const url = `https://${pick(next, HOSTS)}/${slug}/${Math.floor(next() * 100_000)}`;
  const tags = Array.from({ length: Math.floor(next() * 3) }, () => pick(next, TAGS));
  const notes = next() < 0.25 ? capital(words(next, 4 + Math.floor(next() * 7)).join(' ')) : null;
  return { title: [capital(title[0]!), ...title.slice(1)].join(' '), url, tags: [...new Set(tags)], notes };
}

/** Link number `i` as the app would hold it, for the app's own rules in Node (created one second apart). */
export function wordLinkRow(i: number, directoryId: string, newest: number): LinkRow {
  const at = new Date(newest - i * 1000).toISOString();
  return { id: `link-${i}`, directory_id: directoryId, created_at: at, updated_at: at, ...wordLink(i) } as LinkRow;
}
