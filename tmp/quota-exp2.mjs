import { chromium } from '@playwright/test';
import http from 'node:http';
const server = http.createServer((q, r) => { r.setHeader('content-type','text/html'); r.end('<html>hi</html>'); }).listen(0);
const port = server.address().port;
const { chromiumPath, chromiumArgs } = await import('../tests/support/chromium.ts');
const mode = process.argv[2];
let browser, ctx;
if (mode === 'persistent') { ctx = await chromium.launchPersistentContext('/tmp/fc-prof-' + Date.now(), { executablePath: chromiumPath, args: chromiumArgs }); }
else { browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs }); ctx = await browser.newContext(); }
const page = await ctx.newPage();
const origin = `http://127.0.0.1:${port}`;
await page.goto(origin);
const write = (size) => page.evaluate((size) => new Promise((res) => {
  const o = indexedDB.open('x', 1);
  o.onupgradeneeded = () => o.result.createObjectStore('s', { autoIncrement: true });
  o.onsuccess = () => { const tx = o.result.transaction('s', 'readwrite'); tx.objectStore('s').add('a'.repeat(size));
    tx.oncomplete = () => { o.result.close(); res('ok'); }; tx.onabort = () => { o.result.close(); res('abort ' + tx.error?.name); }; };
}), size);
console.log('first', await write(10));
const cdp = await ctx.newCDPSession(page);
for (const o of [origin, origin + '/']) {
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: o, quotaSize: 1 });
  await new Promise((r) => setTimeout(r, 500)); await page.reload();
  console.log('sizes', await page.evaluate(async () => { try { const b = await navigator.storageBuckets?.open('t', {quota: 10}); return 'bucket ' + (await b.estimate()).quota; } catch (e) { return 'nobucket ' + e; } }));
  console.log(JSON.stringify(await cdp.send('Storage.getUsageAndQuota', { origin: o })));
  console.log(mode, o, await page.evaluate(() => navigator.storage.estimate()), await write(10), await write(100000));
}
await ctx.close(); await browser?.close(); server.close();
