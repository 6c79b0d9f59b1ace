/**
 * What a page's head says about it, collected while htmlparser2 streams the page: the `<meta>`
 * values by name or property, the first `<title>`, the first `<base href>`, the icon links and the
 * JSON-LD scripts. Collection stops at `</head>` or the `<body>` (what a head holds comes before
 * them), or after HEAD_MAX_CHARS characters of a page that never closes its head.
 */
import { Parser } from 'htmlparser2';

export const HEAD_MAX_CHARS = 512 * 1024;

export interface IconLink {
  href: string;
  rel: string[];
  sizes: string | null;
  type: string | null;
}

export interface PageHead {
  /** `<meta property|name=... content=...>`, keys lower-cased; the first of each kept. */
  meta: Map<string, string>;
  title: string | null;
  base: string | null;
  icons: IconLink[];
  jsonLd: string[];
}

/** Reads the head of a page given in chunks of text (a decoder's output); stops reading at its end. */
export function readHead(chunks: Iterable<string>): PageHead {
  const head: PageHead = { meta: new Map(), title: null, base: null, icons: [], jsonLd: [] };
  let done = false;
  let depthSvg = 0;
  let inTitle = false;
  let title = '';
  let script: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (done) return;
        if (name === 'body') return void (done = true);
        if (name === 'svg' || name === 'math') depthSvg++;
        if (depthSvg > 0) return;
        if (name === 'meta') return onMeta(head, attributes);
        if (name === 'link') return onLink(head, attributes);
        if (name === 'base' && head.base === null && attributes.href !== undefined) head.base = attributes.href;
        if (name === 'title' && head.title === null) inTitle = true;
        if (name === 'script' && attributes.type?.trim().toLowerCase() === 'application/ld+json') script = '';
      },
      ontext(text) {
        if (inTitle) title += text;
        else if (script !== null) script += text;
      },
      onclosetag(name) {
        if (done) return;
        if (name === 'svg' || name === 'math') depthSvg = Math.max(0, depthSvg - 1);
        if (name === 'title' && inTitle) {
          inTitle = false;
          head.title = title;
        }
        if (name === 'script' && script !== null) {
          head.jsonLd.push(script);
          script = null;
        }
        if (name === 'head') done = true;
      },
    },
    { decodeEntities: true },
  );
  let read = 0;
  for (const chunk of chunks) {
    parser.write(chunk);
    read += chunk.length;
    if (done || read >= HEAD_MAX_CHARS) break;
  }
  if (!done) parser.end();
  if (inTitle && head.title === null && title !== '') head.title = title;
  return head;
}

function onMeta(head: PageHead, attributes: Record<string, string>) {
  const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
  const content = attributes.content;
  if (key === '' || content === undefined || head.meta.has(key)) return;
  head.meta.set(key, content);
}

function onLink(head: PageHead, attributes: Record<string, string>) {
  const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (attributes.href === undefined || !rel.some((token) => ICON_RELS.has(token))) return;
  head.icons.push({
    href: attributes.href,
    rel,
    sizes: attributes.sizes ?? null,
    type: attributes.type?.trim().toLowerCase() ?? null,
  });
}

const ICON_RELS = new Set(['icon', 'apple-touch-icon', 'apple-touch-icon-precomposed']);
