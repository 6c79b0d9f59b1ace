/**
 * A real SMTP server for tests (smtp-server, the Nodemailer project's server library) that keeps
 * what it accepts, parsed to {to, subject, text, messageId}, and can refuse the next DATA
 * commands with a reply code (451: try again later; 550: refused for good), so a test can show
 * a sender's retries. Plain SMTP on loopback, no STARTTLS and no AUTH. Used by the Vitest suites
 * (tests/local/mail-delivery.test.ts) and the e2e journeys (e2e/mail-delivery.spec.ts).
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  /** The envelope's recipients, comma-separated. */
  to: string;
  from: string;
  subject: string;
  /** The text body, decoded, with LF line ends. */
  text: string;
  /** The Message-ID header as sent, `<...>`. */
  messageId: string;
  headers: Map<string, string>;
}

export interface SmtpTestServer {
  port: number;
  /** Accepted messages, oldest first. */
  readonly messages: ReceivedMail[];
  /** DATA commands answered so far, refused ones included. */
  readonly attempts: number;
  /** The DATA commands it refused: to whom, with which code. */
  readonly refused: { to: string; code: number }[];
  /**
   * Refuses the next `count` DATA commands with `code` (default 451); with `to`, only those of
   * mail to that address (other mail, such as a spec's leftovers, goes through).
   */
  failNext(count: number, code?: number, to?: string): void;
  /** The accepted messages to an address. */
  to(address: string): ReceivedMail[];
  /** Forgets what it received and stops refusing. */
  reset(): void;
  close(): Promise<void>;
}

export interface SmtpTestServerOptions {
  /** Default 0: a free port. */
  port?: number;
  host?: string;
  /** Refuse the first DATA commands with failCode (451 unless given). */
  failFirst?: number;
  failCode?: number;
}

/** Unfolds the header block into lower-cased names and their values (RFC 5322 2.2.3). */
function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n([ \t])/g, '$1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function quotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes);
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, text: string) =>
      (encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : quotedPrintable(text.replace(/_/g, ' '))
      ).toString('utf8'),
    );
}

/** The parts of a single-part text message a test reads. */
export function parseMessage(raw: string, envelopeTo: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(split < 0 ? raw : raw.slice(0, split));
  // Without the line end SMTP puts before the final dot.
  const body = split < 0 ? '' : raw.slice(split + 4).replace(/\r\n$/, '');
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const decoded =
    encoding === 'quoted-printable'
      ? quotedPrintable(body).toString('utf8')
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return {
    to: envelopeTo.join(', '),
    from: decodeWords(headers.get('from') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: decoded.replace(/\r\n/g, '\n'),
    messageId: headers.get('message-id') ?? '',
    headers,
  };
}

export async function startSmtpTestServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const messages: ReceivedMail[] = [];
  const refused: { to: string; code: number }[] = [];
  let attempts = 0;
  let failing: { count: number; code: number; to?: string } = {
    count: options.failFirst ?? 0,
    code: options.failCode ?? 451,
  };
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        attempts++;
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        const targeted = !failing.to || to.some((address) => address.toLowerCase() === failing.to);
        if (failing.count > 0 && targeted) {
          failing = { ...failing, count: failing.count - 1 };
          refused.push({ to: to.join(', '), code: failing.code });
          const refusal = Object.assign(
            new Error(failing.code >= 500 ? 'Refused by the test server' : 'Try again later (test server)'),
            { responseCode: failing.code },
          );
          callback(refusal);
          return;
        }
        messages.push(parseMessage(Buffer.concat(chunks).toString('utf8'), to));
        callback(null);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // An error on one connection (a client gone mid-session) must not end the test run.
  server.on('error', () => {});
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    get attempts() {
      return attempts;
    },
    refused,
    failNext(count, code = 451, to) {
      failing = { count, code, to: to?.toLowerCase() };
    },
    to: (address) => messages.filter((mail) => mail.to.toLowerCase().split(', ').includes(address.toLowerCase())),
    reset() {
      messages.length = 0;
      refused.length = 0;
      attempts = 0;
      failing = { count: 0, code: 451 };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
