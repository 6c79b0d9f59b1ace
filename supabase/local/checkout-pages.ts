/** The test-mode card provider's pages: their common frame, the escaping of text and their policy. */
export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

export function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Linkboard test-mode payments</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#111827}
.box{border:1px solid #d1d5db;border-radius:.75rem;padding:1.25rem;margin:1rem 0}.note{background:#fef3c7;color:#78350f;
border-radius:.5rem;padding:.5rem .75rem;font-size:.9rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{color:#4b5563}dd{margin:0;font-weight:600}button{font:inherit;border-radius:.5rem;padding:.6rem 1rem;border:1px solid #1d4ed8;
background:#1d4ed8;color:#fff;cursor:pointer}button.secondary{background:#fff;color:#1d4ed8}button.danger{background:#fff;
color:#b91c1c;border-color:#b91c1c}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1rem}fieldset{border:0;padding:0;margin:0}
label{display:block;margin:.35rem 0}a{color:#1d4ed8}</style>
</head><body><main>
<p class="note" role="note">Test mode: this page stands in for the card provider. No card is charged.</p>
${content}
</main></body></html>`;
}

/** The pages' policy: their forms post to themselves and then send the browser back to the app. */
export function pageCsp(siteUrl: string): string {
  return `default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self' ${new URL(siteUrl).origin}; frame-ancestors 'none'`;
}
