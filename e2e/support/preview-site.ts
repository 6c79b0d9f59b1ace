/**
 * A web site on loopback for the link-preview journeys: the main e2e stack may read it
 * (playwright.config.ts gives it PREVIEW_FETCH_ALLOW for this port, a test-only setting). Each page
 * can be switched to fail and back, so a spec can show 'No preview' and a retry; pages under
 * /missing answer 404, as a page that is gone.
 */
import { createServer, type Server } from 'node:http';
import { e2ePort } from './mail-stack.ts';

export const previewSitePort = e2ePort + 3;
export const previewSiteUrl = `http://127.0.0.1:${previewSitePort}`;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const page = (name: string) => `<!doctype html><html><head>
<title>${name} (plain title)</title>
<meta property="og:title" content="${name}">
<meta property="og:description" content="All about ${name.toLowerCase()}.">
<meta property="og:site_name" content="Preview Site">
<meta property="og:image" content="/${name.toLowerCase()}.png">
<link rel="icon" sizes="64x64" href="/icon.png">
</head><body><p>${name}</p></body></html>`;

export interface PreviewSite {
  /** Pages that answer 500 until set back. */
  failing: Set<string>;
  close(): Promise<void>;
}

export async function startPreviewSite(): Promise<PreviewSite> {
  const failing = new Set<string>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', previewSiteUrl).pathname;
    if (path.endsWith('.png')) {
      res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    } else if (path.startsWith('/missing')) {
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<title>Not found</title>');
    } else if (failing.has(path)) {
      res.writeHead(500, { 'Content-Type': 'text/html' }).end('<title>Down</title>');
    } else {
      const name = path.slice(1).replace(/^./, (first) => first.toUpperCase()) || 'Home';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(name));
    }
  });
  await new Promise<void>((done) => server.listen(previewSitePort, '127.0.0.1', done));
  return {
    failing,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
