/**
 * The built app: files from staticDir, index.html for client-side routes (GET paths without a
 * file that accept text/html), `no-cache` for index.html and sw.js, immutable caching for the
 * content-hashed /assets/*, compressed.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { Hono, type Context } from 'hono';
import { compress } from 'hono/compress';
import { serveStatic } from '@hono/node-server/serve-static';
import { routePreloads } from './route-preloads.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.gif': 'image/gif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.wasm': 'application/wasm',
};

function cacheControl(path: string): string {
  if (path.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  if (path === '/index.html' || path === '/sw.js' || path.endsWith('.html') || path.endsWith('.webmanifest')) {
    return 'no-cache';
  }
  return 'public, max-age=3600, must-revalidate';
}

async function fileAt(root: string, path: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const file = resolve(root, `.${normalize(`/${decoded}`)}`);
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  const info = await stat(file).catch(() => undefined);
  if (info?.isFile()) return file;
  if (info?.isDirectory()) {
    const index = join(file, 'index.html');
    if ((await stat(index).catch(() => undefined))?.isFile()) return index;
  }
  return undefined;
}

export interface StaticOptions {
  /** Written into index.html as <meta name="linkboard-anon-key">, so the app learns its key at run time. */
  anonKey?: string;
  /** Written as <meta name="linkboard-vapid-key">: the key the app subscribes to reminder pushes with. */
  vapidPublicKey?: string;
}

/**
 * The worker precaches index.html by its build revision, but the copy it keeps carries the key
 * written into it above: the revision served in sw.js also names the key, so a new key (a new
 * install, an in-memory run) makes a new worker that fetches index.html again.
 */
function keyedPrecache(worker: Uint8Array, keys: string): string {
  const keyHash = createHash('sha256').update(keys).digest('hex').slice(0, 12);
  return new TextDecoder()
    .decode(worker)
    .replace(
      /("revision":")([0-9a-f]+)(","url":"index\.html")/,
      (_m, head: string, rev: string, tail: string) => `${head}${rev}-${keyHash}${tail}`,
    );
}

const escapeAttribute = (text: string) => text.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * `route`: the client-side route index.html is served for ('/', '/Login', a username...), whose
 * screen's chunks it then preloads (route-preloads.ts); none for /index.html itself (what the
 * service worker precaches).
 */
async function send(
  c: Context,
  file: string,
  urlPath: string,
  options: StaticOptions,
  route?: string,
): Promise<Response> {
  let body: Uint8Array = await readFile(file);
  if (options.anonKey && file.endsWith('index.html')) {
    let meta = `<meta name="linkboard-anon-key" content="${escapeAttribute(options.anonKey)}" />`;
    if (options.vapidPublicKey) {
      meta += `\n    <meta name="linkboard-vapid-key" content="${escapeAttribute(options.vapidPublicKey)}" />`;
    }
    body = new TextEncoder().encode(new TextDecoder().decode(body).replace('<head>', `<head>\n    ${meta}`));
  }
  if (route && file.endsWith('index.html')) {
    const preloads = await routePreloads(dirname(file), route);
    if (preloads) {
      body = new TextEncoder().encode(new TextDecoder().decode(body).replace('</head>', `  ${preloads}\n  </head>`));
    }
  }
  if (options.anonKey && urlPath === '/sw.js') {
    // The VAPID key joins the hash only when there is one, so a stack without it keeps its revision.
    const keys = options.vapidPublicKey ? `${options.anonKey}\n${options.vapidPublicKey}` : options.anonKey;
    body = new TextEncoder().encode(keyedPrecache(body, keys));
  }
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const cachePath = file.endsWith(`${sep}index.html`) ? '/index.html' : urlPath;
  return c.body(new Uint8Array(body), 200, {
    'Content-Type': type,
    'Cache-Control': cacheControl(cachePath),
    'Content-Length': String(body.byteLength),
  });
}

/**
 * The static part of the stack: Hono's compress (gzip or deflate as the browser accepts, for
 * compressible types over 1 KiB) and serveStatic for the files, with the caching above; index.html
 * and sw.js go through send() (the anon key written in); other GET paths that accept HTML get
 * index.html (client-side routes).
 */
export function staticApp(staticDir: string, options: StaticOptions = {}): Hono {
  const root = resolve(staticDir);
  const app = new Hono();
  app.use('*', compress());
  app.all('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.text('Method Not Allowed', 405);
    const path = c.req.path;
    // Source maps are never served, even if a build left some behind.
    if (path.endsWith('.map')) return c.text('Not Found', 404);
    if (path === '/' || path === '/index.html' || path === '/sw.js') {
      const file = await fileAt(root, path);
      if (file) return send(c, file, path, options, path === '/' ? path : undefined);
    }
    c.header('Cache-Control', cacheControl(path));
    return next();
  });
  app.use('*', serveStatic({ root }));
  app.all('*', async (c) => {
    const path = c.req.path;
    const wantsHtml = (c.req.header('Accept') ?? '').includes('text/html');
    const looksLikeFile = /\.[a-z0-9]+$/i.test(path) || path.startsWith('/assets/');
    if (wantsHtml && !looksLikeFile) {
      const index = await fileAt(root, '/index.html');
      if (index) return send(c, index, '/index.html', options, path);
      return c.html(
        '<!doctype html><title>Linkboard</title><p>The app is not built yet: run <code>npm run build</code> (or <code>npm start</code>).</p>',
        503,
      );
    }
    return c.text('Not Found', 404, { 'Cache-Control': 'no-cache' });
  });
  return app;
}
