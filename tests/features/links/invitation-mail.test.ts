/**
 * Invitation mails wait for the server: queued with the invite, sent by the flush that follows a
 * successful sync, never for an invite the server refused. Against the local stack in-process
 * (real sync_push/sync_pull and the real send-email function through supabase-js).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendEmail } from '../../../src/backend/functions.ts';
import { mutate } from '../../../src/data/mutate.ts';
import {
  MAX_MAIL_ATTEMPTS,
  flushInvitationMails,
  invitationMail,
  pendingInvitationMails,
  queueInvitationMail,
  type FlushResult,
  type InvitationMail,
} from '../../../src/features/links/invitation-mail.ts';
import { freshDb, makeDirectory, ME } from '../../data/helpers.ts';
import {
  makeDevice,
  signUpUser,
  startSyncStack,
  type Device,
  type SyncStack,
  type TestUser,
} from '../../support/sync-harness.ts';

const stamp = { created_at: '2026-03-01T00:00:00.000Z', updated_at: '2026-03-01T00:00:00.000Z' };

describe('invitationMail', () => {
  it('names the directory and carries the absolute link /Links/{owner}/dir/{id}', () => {
    const mail = invitationMail({
      origin: 'https://linkboard.test',
      ownerUsername: 'ada',
      directory: { id: 'd-1', name: 'Reading' },
      to: 'bob@example.com',
      role: 'viewer',
      inviter: 'ada@example.com',
    });
    expect(mail.to).toBe('bob@example.com');
    expect(mail.subject).toBe('You have been invited to Reading on Linkboard');
    expect(mail.body).toContain('https://linkboard.test/Links/ada/dir/d-1');
    expect(mail.body).toContain('as a Viewer');
  });
});

describe('flushInvitationMails on the local database', () => {
  const mail: InvitationMail = { to: 'bob@example.com', subject: 'S', body: 'B' };

  async function serverMember(db: ReturnType<typeof freshDb>, id: string) {
    await db.directory_members.put({
      id,
      directory_id: 'd',
      user_email: mail.to,
      role: 'viewer',
      inviter_id: ME,
      txid: '42',
      ...stamp,
    });
  }

  afterEach(() => vi.restoreAllMocks());

  it('retries a failed send at later flushes and gives up after the last attempt', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const db = freshDb();
    await serverMember(db, 'm1');
    await queueInvitationMail(db, 'm1', mail);
    const failing = vi.fn(async () => false);
    for (let attempt = 1; attempt < MAX_MAIL_ATTEMPTS; attempt++) {
      expect(await flushInvitationMails(db, failing)).toEqual({ sent: [], dropped: [], failed: ['m1'] });
      expect(await pendingInvitationMails(db)).toEqual([{ memberId: 'm1', mail, attempts: attempt }]);
    }
    await flushInvitationMails(db, failing);
    expect(failing).toHaveBeenCalledTimes(MAX_MAIL_ATTEMPTS);
    expect(await pendingInvitationMails(db)).toEqual([]);
  });

  it('two flushes at once send a mail once', async () => {
    const db = freshDb();
    await serverMember(db, 'm1');
    await queueInvitationMail(db, 'm1', mail);
    const send = vi.fn(async () => true);
    await Promise.all([flushInvitationMails(db, send), flushInvitationMails(db, send), flushInvitationMails(db, send)]);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('waits while the member row is only optimistic', async () => {
    const db = freshDb();
    await db.directory_members.put({
      id: 'm1',
      directory_id: 'd',
      user_email: mail.to,
      role: 'viewer',
      inviter_id: ME,
      ...stamp,
    });
    await queueInvitationMail(db, 'm1', mail);
    const send = vi.fn(async () => true);
    expect(await flushInvitationMails(db, send)).toEqual({ sent: [], dropped: [], failed: [] });
    expect(send).not.toHaveBeenCalled();
    expect(await pendingInvitationMails(db)).toHaveLength(1);
  });

  it('drops the mail of an invite whose member row is gone (refused, discarded or removed)', async () => {
    const db = freshDb();
    await db.link_directories.put(makeDirectory({ id: 'd' }));
    await queueInvitationMail(db, 'gone', mail);
    expect(
      await flushInvitationMails(
        db,
        vi.fn(async () => true),
      ),
    ).toEqual({ sent: [], dropped: ['gone'], failed: [] });
    expect(await pendingInvitationMails(db)).toEqual([]);
  });
});

describe('invitation mails through sync against the local stack', () => {
  let stack: SyncStack;
  const devices: Device[] = [];

  beforeAll(async () => {
    stack = await startSyncStack();
  });
  afterAll(async () => {
    for (const device of devices) device.close();
    await stack.close();
  });

  /** A device whose engine flushes the mails after each successful sync, as the app does. */
  function ownerDevice(user: TestUser) {
    const flushes: Promise<FlushResult>[] = [];
    const device = makeDevice('owner', user, {
      onSynced: () => flushes.push(flushInvitationMails(device.db, (next) => sendEmail(next, user.client))),
    });
    devices.push(device);
    return { device, flushes };
  }

  async function mailsTo(to: string) {
    const { rows } = await stack.db.query<{ subject: string; body: string }>(
      'select subject, body from public.outgoing_mail where to_address = $1',
      [to],
    );
    return rows;
  }

  async function invite(device: Device, directoryId: string, to: string, role: 'viewer' | 'editor') {
    const id = randomUUID();
    await mutate(device.db, 'member.invite', { id, directory_id: directoryId, user_email: to, role }, device.context());
    await queueInvitationMail(
      device.db,
      id,
      invitationMail({
        origin: 'http://app.test',
        ownerUsername: 'owner',
        directory: { id: directoryId, name: 'Team' },
        to,
        role,
        inviter: device.user.email,
      }),
    );
    return id;
  }

  it('an invite made offline is mailed after it syncs, once', async () => {
    const owner = await signUpUser(stack);
    const { device, flushes } = ownerDevice(owner);
    const dir = randomUUID();
    await mutate(device.db, 'directory.create', { id: dir, name: 'Team' }, device.context());
    expect(await device.engine.sync()).toBe('synced');
    await Promise.all(flushes.splice(0));

    device.transport.offline = true;
    const to = `guest-${randomUUID()}@example.com`;
    const memberId = await invite(device, dir, to, 'viewer');
    expect(await flushInvitationMails(device.db, (next) => sendEmail(next, owner.client))).toEqual({
      sent: [],
      dropped: [],
      failed: [],
    });
    expect(await device.engine.sync()).toBe('offline');
    expect(flushes).toHaveLength(0);
    expect(await mailsTo(to)).toEqual([]);

    device.transport.offline = false;
    expect(await device.engine.sync()).toBe('synced');
    expect(await Promise.all(flushes.splice(0))).toEqual([{ sent: [memberId], dropped: [], failed: [] }]);
    const mails = await mailsTo(to);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('You have been invited to Team on Linkboard');
    expect(mails[0]?.body).toContain(`http://app.test/Links/owner/dir/${dir}`);

    expect(await device.engine.sync()).toBe('synced');
    await Promise.all(flushes.splice(0));
    expect(await mailsTo(to)).toHaveLength(1);
    expect(await pendingInvitationMails(device.db)).toEqual([]);
  });

  it('an invite the server refuses sends no mail', async () => {
    const owner = await signUpUser(stack); // Free on the server
    // The device still believes it is on Pro (a downgrade not yet pulled), so it queues an Editor invite.
    const { device, flushes } = ownerDevice({ ...owner, tier: 'pro' });
    const dir = randomUUID();
    await mutate(device.db, 'directory.create', { id: dir, name: 'Team' }, device.context());
    const to = `editor-${randomUUID()}@example.com`;
    const memberId = await invite(device, dir, to, 'editor');
    expect(await device.engine.sync()).toBe('synced');
    expect(device.rejected).toEqual(['Upgrade to Pro to assign the Editor role.']);
    expect(await Promise.all(flushes.splice(0))).toEqual([{ sent: [], dropped: [memberId], failed: [] }]);
    expect(await device.db.directory_members.get(memberId)).toBeUndefined();
    expect(await mailsTo(to)).toEqual([]);
  });
});
