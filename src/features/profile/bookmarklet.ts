/**
 * The bookmarklet (docs/product.md, Browser extension and bookmarklet): a `javascript:` URL that
 * opens this app's /share-target in a small window with the page's address, title and selected
 * text. It runs on the page the user is reading, so it is one expression with no dependency and
 * no `%` (a javascript: URL is percent-decoded before it runs).
 */

/** The selection is cut here before it travels in the address; the share target cuts Notes to 10,000. */
const NOTE_MAX = 10_000;

export function bookmarkletHref(origin: string): string {
  const target = JSON.stringify(`${origin}/share-target?`);
  return (
    'javascript:(function(){' +
    `var n=String(getSelection()||'').slice(0,${NOTE_MAX});` +
    `window.open(${target}+new URLSearchParams({url:location.href,title:document.title,note:n}),` +
    "'linkboard','popup,width=560,height=760')})()"
  );
}
