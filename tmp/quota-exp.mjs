import { chromium } from '@playwright/test';
import http from 'node:http';
const server = http.createServer((q, r) => { r.setHeader('content-type','text/html'); r.end('<html>hi</html>'); }).listen(0);
const port = server.address().port;
const { chromiumPath, chromiumArgs } = await import('../tests/support/chromium.ts');
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const ctx = await browser.newContext();
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
const est = await page.evaluate(() => navigator.storage.estimate());
console.log(est);
const cdp = await browser.newBrowserCDPSession();
for (const q of [est.usage, 1, 0]) {
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: q });
  console.log('quota', q, await page.evaluate(() => navigator.storage.estimate()), await write(10), await write(100000));
}
await browser.close(); server.close();
