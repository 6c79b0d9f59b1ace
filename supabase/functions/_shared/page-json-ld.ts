/**
 * What a page's JSON-LD (`<script type="application/ld+json">`) says of it: the main item's
 * headline or name, description and image, and the publisher's name. A script may hold one item,
 * an array, or a `@graph`; items may point at each other by `@id` (a NewsArticle's publisher is
 * often `{"@id": "#organization"}`). A script that is no JSON is skipped, as a browser would. Some
 * sites write HTML entities into its strings (`Tom &amp; Jerry`): they are decoded, as in the
 * page's own text.
 */
import { Parser } from 'htmlparser2';

export interface JsonLdFacts {
  title: string | null;
  description: string | null;
  image: string | null;
  siteName: string | null;
}

type Item = Record<string, unknown>;

/**
 * The types a main item may have, best first: what the page is about, never who made it (an
 * Organization, a WebSite, a Person or a BreadcrumbList names the site, not the page).
 */
const MAIN_TYPES = [
  [
    'article',
    'newsarticle',
    'analysisnewsarticle',
    'opinionnewsarticle',
    'reportagenewsarticle',
    'blogposting',
    'socialmediaposting',
    'discussionforumposting',
    'techarticle',
    'scholarlyarticle',
    'report',
  ],
  [
    'product',
    'recipe',
    'event',
    'videoobject',
    'podcastepisode',
    'movie',
    'book',
    'course',
    'dataset',
    'howto',
    'jobposting',
    'softwareapplication',
    'softwaresourcecode',
  ],
  ['webpage', 'itempage', 'collectionpage', 'profilepage', 'aboutpage', 'qapage', 'faqpage'],
];

export function readJsonLd(scripts: readonly string[]): JsonLdFacts {
  const items = scripts.flatMap((script) => itemsOf(parse(script)));
  const byId = new Map<string, Item>();
  for (const item of items) if (typeof item['@id'] === 'string') byId.set(item['@id'], item);
  const deref = (value: unknown): unknown => {
    if (isItem(value) && typeof value['@id'] === 'string' && Object.keys(value).length === 1)
      return byId.get(value['@id']) ?? value;
    return value;
  };
  const rank = (item: Item) => {
    const types = typesOf(item);
    const at = MAIN_TYPES.findIndex((group) => group.some((type) => types.includes(type)));
    return at === -1 ? MAIN_TYPES.length : at;
  };
  const main = items
    .map((item, order) => ({ item, order, rank: rank(item) }))
    .filter(({ item, rank: r }) => r < MAIN_TYPES.length && (text(item.headline) ?? text(item.name)))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)[0]?.item;
  const publisher = main ? deref(main.publisher) : undefined;
  const website = items.find((item) => typesOf(item).includes('website'));
  return {
    title: main ? (text(main.headline) ?? text(main.name)) : null,
    description: main ? text(main.description) : null,
    image: main ? imageOf(deref(main.image), deref) : null,
    siteName: (isItem(publisher) ? text(publisher.name) : null) ?? (website ? text(website.name) : null),
  };
}

/** The JSON in a script, without the comment wrappers old pages put around it; undefined when it is none. */
function parse(script: string): unknown {
  let body = script.trim();
  for (const [open, close] of WRAPPERS) {
    if (body.startsWith(open) && body.endsWith(close)) body = body.slice(open.length, -close.length).trim();
  }
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const WRAPPERS: [string, string][] = [
  ['<!--', '-->'],
  ['/*<![CDATA[*/', '/*]]>*/'],
  ['//<![CDATA[', '//]]>'],
];

function itemsOf(value: unknown): Item[] {
  if (Array.isArray(value)) return value.flatMap(itemsOf);
  if (!isItem(value)) return [];
  const graph = value['@graph'];
  return Array.isArray(graph) ? [value, ...graph.flatMap(itemsOf)] : [value];
}

function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(item: Item): string[] {
  const type = item['@type'];
  return (Array.isArray(type) ? type : [type]).filter((t) => typeof t === 'string').map((t) => t.toLowerCase());
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? decodeEntities(value) : null;
}

/** `value` with its character references decoded by htmlparser2, as text (a `<` starts no tag). */
function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  let decoded = '';
  const parser = new Parser({ ontext: (part) => void (decoded += part) }, { decodeEntities: true });
  parser.write(value.replaceAll('<', '&lt;'));
  parser.end();
  return decoded;
}

/** An image given as a URL, an ImageObject (`url` or `contentUrl`), a reference, or a list of them. */
function imageOf(value: unknown, deref: (value: unknown) => unknown): string | null {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) {
    for (const entry of value) {
      const found = imageOf(deref(entry), deref);
      if (found) return found;
    }
    return null;
  }
  if (isItem(value)) return text(value.url) ?? text(value.contentUrl);
  return null;
}
