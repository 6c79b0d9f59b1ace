/**
 * The local stack's Web Push settings: the VAPID key pair that signs reminder pushes (its public
 * half is written into the served index.html, where the app reads it to subscribe), the sender's
 * subject, and a scheduler secret. The keys come from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, else
 * from the install's .data/vapid-keys.json (made on the first start, mode 0600, beside the JWT
 * secret), so devices subscribed once keep working across restarts; an in-memory run or a test
 * stack makes a pair for its life.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import webpush from 'web-push';

export interface PushSettings {
  publicKey: string;
  privateKey: string;
  /** mailto: or https:; default mailto:<support address> (send-reminders). */
  subject?: string;
  /** A secret a scheduler may show send-reminders instead of the service-role key. */
  cronSecret?: string;
}

/** A fresh VAPID key pair (P-256, base64url). */
export function newVapidKeys(): PushSettings {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return { publicKey, privateKey };
}

const KEY = /^[A-Za-z0-9_-]+$/;

function readKept(file: string): PushSettings {
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<PushSettings>;
  if (!kept.publicKey || !kept.privateKey || !KEY.test(kept.publicKey) || !KEY.test(kept.privateKey)) {
    throw new Error(`${file} does not hold a VAPID key pair; delete it to make a new one.`);
  }
  return { publicKey: kept.publicKey, privateKey: kept.privateKey };
}

/**
 * VAPID_PUBLIC_KEY with VAPID_PRIVATE_KEY (both or neither), else the pair kept at `file` (made
 * when missing; undefined `file`: a pair for this run). VAPID_SUBJECT and REMINDERS_CRON_SECRET
 * are carried along.
 */
export function pushSettingsFrom(env: NodeJS.ProcessEnv, file?: string): PushSettings & { source: string } {
  const extra = { subject: env.VAPID_SUBJECT || undefined, cronSecret: env.REMINDERS_CRON_SECRET || undefined };
  const publicKey = env.VAPID_PUBLIC_KEY?.trim();
  const privateKey = env.VAPID_PRIVATE_KEY?.trim();
  if (publicKey || privateKey) {
    if (!publicKey || !privateKey) throw new Error('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither.');
    return { publicKey, privateKey, ...extra, source: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY' };
  }
  if (!file) return { ...newVapidKeys(), ...extra, source: 'random for this run' };
  if (existsSync(file)) return { ...readKept(file), ...extra, source: file };
  mkdirSync(dirname(file), { recursive: true });
  const keys = newVapidKeys();
  writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600, flag: 'wx' });
  return { ...keys, ...extra, source: `${file} (new)` };
}
