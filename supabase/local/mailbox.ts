/** /_mailbox: the mail the stack "sent" (public.outgoing_mail), as a page and as JSON for tests. */
import { Hono } from 'hono';
import * as v from 'valibot';
import { firstIssue, text } from '../../src/domain/input-schema.ts';
import type { StackContext } from './context.ts';
import { isoSql } from './context.ts';
import { isLoopback, socketPeer } from './client-address.ts';
import { PAGE_CSP } from './http-headers.ts';
import { mailAttachments, type MailAttachment } from '../functions/_shared/mail-calendar.ts';

/**
 * Who may read the mailbox, which holds confirmation links: 'loopback' (only this machine; the
 * default), 'any' (LINKBOARD_MAILBOX=public, a development flag) or 'off' (a real mail provider
 * is configured, so mail leaves the machine and the mailbox does not exist).
 */
export type MailboxMode = 'loopback' | 'any' | 'off';

export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  sender_id: string | null;
  created_at: string;
  /** What the sender attaches: a time poll's pick as invite.ics (supabase/functions/_shared/mail-calendar.ts). */
  attachments: MailAttachment[];
}

/** ?to=: only the mail to this address (any case); empty or absent: all of it. */
const mailboxQuery = v.object({
  to: v.pipe(
    v.optional(text('to', { label: 'address', max: 320 })),
    v.transform((to) => to || undefined),
  ),
});

export async function listMail(ctx: StackContext, to?: string): Promise<MailboxMessage[]> {
  const { rows: exists } = await ctx.db.query<{ t: string | null }>(
    "select to_regclass('public.outgoing_mail')::text as t",
  );
  if (!exists[0]?.t) return [];
  const { rows } = await ctx.db.query<{ list: string }>(
    `select coalesce(json_agg(m order by m.at desc, m.id), '[]'::json)::text as list from (
       select id, to_address as "to", subject, body, sender_id, ${isoSql('created_at')} as created_at, created_at as at,
              calendar
         from public.outgoing_mail where $1::text is null or lower(to_address) = lower($1::text)) m`,
    [to ?? null],
  );
  type Listed = Omit<MailboxMessage, 'attachments'> & { at?: unknown; calendar?: unknown };
  return (JSON.parse(rows[0]?.list ?? '[]') as Listed[]).map(({ at: _at, calendar, ...m }) => ({
    ...m,
    // DTSTAMP from the row's time, so the same mail lists the same file every time.
    attachments: mailAttachments(calendar, new Date(m.created_at)),
  }));
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/** Escapes the text and turns http(s) URLs into links. */
export function linkify(text: string): string {
  return escape(text).replace(/https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g, (url) => `<a href="${url}">${url}</a>`);
}

function page(messages: MailboxMessage[], to?: string): string {
  const items = messages
    .map(
      (m) => `<article>
  <h2>${escape(m.subject)}</h2>
  <p class="meta">To <strong>${escape(m.to)}</strong> · <time datetime="${m.created_at}">${escape(m.created_at.replace('T', ' ').slice(0, 19))} UTC</time></p>
  <pre>${linkify(m.body)}</pre>${m.attachments.map((file) => `\n  <p class="meta">Attached: ${escape(file.filename)} (${escape(file.content_type.split(';')[0] ?? '')})</p>`).join('')}
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailbox · Linkboard local stack</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
article{border:1px solid #e5e7eb;border-radius:.5rem;padding:1rem;margin:1rem 0}h2{margin:0;font-size:1.1rem}
.meta{color:#4b5563;margin:.25rem 0 .75rem}pre{white-space:pre-wrap;font:inherit;margin:0}a{color:#1d4ed8}</style>
</head><body>
<h1>Mailbox</h1>
<p>Mail sent by the local stack${to ? ` to ${escape(to)}` : ''}, newest first. Nothing leaves this machine.
<a href="/_mailbox">Refresh</a> · <a href="/_mailbox/messages.json">JSON</a></p>
${items || '<p>No mail yet.</p>'}
</body></html>`;
}

export function mailboxApp(ctx: StackContext, mode: MailboxMode): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    const peer = socketPeer(c);
    // In-process requests (tests) have no socket; network ones must come from this machine.
    const allowed = mode === 'any' || (mode === 'loopback' && (!peer || isLoopback(peer)));
    if (!allowed) return c.text('Not Found', 404);
    await next();
    c.header('Content-Security-Policy', PAGE_CSP);
  });
  app.get('/messages.json', async (c) => {
    const query = v.safeParse(mailboxQuery, c.req.query());
    if (!query.success) return c.json({ error: firstIssue(query.issues) }, 400);
    return c.json(await listMail(ctx, query.output.to));
  });
  app.get('/', async (c) => {
    const query = v.safeParse(mailboxQuery, c.req.query());
    if (!query.success) return c.text(firstIssue(query.issues), 400);
    const { to } = query.output;
    c.header('Cache-Control', 'no-cache');
    return c.html(page(await listMail(ctx, to), to));
  });
  return app;
}
