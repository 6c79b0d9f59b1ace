/**
 * 'Find a time' (docs/product.md, Find a time) in the real browser: a Team owner asks when the team
 * can meet, two members answer while offline (one changing an answer on the way), the owner sees the
 * grid and picks the best time; each member accepts the invitation and the event is in their
 * calendar; the pick's mail carries a valid invite.ics; picking again moves the accepted events.
 */
import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import type { WorkspaceExport } from '../src/features/transfer/workspace-export.ts';
import { newUser } from './pages/login-page.ts';
import { confirmationLink } from './pages/mailbox.ts';
import { pushAs, setTier } from './support/admin.ts';
import { signUpAndSync, syncStatus } from './support/workspace.ts';

type User = ReturnType<typeof newUser>;

interface MailboxMail {
  subject: string;
  attachments: { filename: string; content_type: string; content: string }[];
}

/** 'YYYY-MM-DD' of the day `days` from today, as the browser's (UTC) calendar has it. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function openTeamPolls(page: Page, username: string, dirId: string) {
  await page.goto(`/Links/${username}/dir/${dirId}`);
  await page.getByRole('tab', { name: 'Team Polls' }).click();
}

async function member(browser: Browser, request: APIRequestContext, user: User) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUpAndSync(page, user);
  await page.goto(await confirmationLink(request, user.email));
  await expect(syncStatus(page)).toHaveText('Synced');
  return { context, page };
}

/** The slot rows of a time poll's table, in slot order. */
const slotRow = (poll: Locator, index: number) => poll.locator('tbody tr').nth(index);

async function answer(poll: Locator, index: number, label: 'Yes' | 'If need be' | 'No') {
  const button = slotRow(poll, index).getByRole('button', { name: label, exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
}

async function pickMail(request: APIRequestContext, to: string, subject: string): Promise<MailboxMail> {
  let found: MailboxMail | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/_mailbox/messages.json?to=${encodeURIComponent(to)}`);
      found = ((await response.json()) as MailboxMail[]).find((mail) => mail.subject === subject);
      return found?.subject ?? '';
    })
    .toBe(subject);
  return found as MailboxMail;
}

test('a team finds a time: two members answer offline, the owner picks, the members accept, the mail carries the .ics, a second pick moves it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const owner = newUser('timeowner');
  const ana = newUser('timeana');
  const ben = newUser('timeben');
  await signUpAndSync(page, owner);
  await setTier(request, owner, 'team');
  const dirId = randomUUID();
  await pushAs(request, owner, [
    { name: 'directory.create', args: { id: dirId, name: 'Offsite' } },
    { name: 'member.invite', args: { id: randomUUID(), directory_id: dirId, user_email: ana.email, role: 'editor' } },
    { name: 'member.invite', args: { id: randomUUID(), directory_id: dirId, user_email: ben.email, role: 'viewer' } },
  ]);

  // The owner asks: two slots, three and four days from now.
  await openTeamPolls(page, owner.username, dirId);
  await page.getByRole('button', { name: 'Create First Poll' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Team Poll' });
  // The kind is a radio group drawn as a switch: the user clicks its label.
  await dialog.locator('label', { hasText: 'Find a time' }).click();
  await expect(dialog.getByRole('radio', { name: 'Find a time' })).toBeChecked();
  await dialog.getByLabel('Title').fill('Team offsite');
  await dialog.getByLabel('Slot 1 date').fill(dayFromNow(3));
  await dialog.getByLabel('Slot 1 time').fill('10:00');
  await dialog.getByLabel('Slot 2 date').fill(dayFromNow(4));
  await dialog.getByLabel('Slot 2 time').fill('14:00');
  await dialog.getByRole('button', { name: 'Create Team Poll' }).click();
  await expect(dialog).toBeHidden();
  const ownersPoll = page.getByRole('article', { name: 'Team offsite' });
  await expect(ownersPoll.locator('tbody tr')).toHaveCount(2);
  await expect(syncStatus(page)).toHaveText('Synced');

  // Two members, both offline while they answer; Ana changes her mind on the second slot.
  const a = await member(browser, request, ana);
  const b = await member(browser, request, ben);
  const polls: Locator[] = [];
  for (const [m, user] of [
    [a, ana],
    [b, ben],
  ] as const) {
    await openTeamPolls(m.page, user.username, dirId);
    const poll = m.page.getByRole('article', { name: 'Team offsite' });
    await expect(poll.locator('tbody tr')).toHaveCount(2);
    await m.context.setOffline(true);
    polls.push(poll);
  }
  const [anaPoll, benPoll] = polls as [Locator, Locator];
  await answer(anaPoll, 0, 'Yes');
  await answer(anaPoll, 1, 'No');
  await answer(anaPoll, 1, 'If need be');
  await answer(benPoll, 0, 'If need be');
  await answer(benPoll, 1, 'No');
  // Counted at once, offline: each answer once.
  await expect(slotRow(anaPoll, 1).getByRole('cell').nth(2)).toHaveText('1');
  for (const m of [a, b]) {
    await m.context.setOffline(false);
    await expect(syncStatus(m.page)).toHaveText('Synced');
  }

  // The owner's grid: every answer once, the first slot the best (1 Yes and 1 If need be).
  await expect(slotRow(ownersPoll, 0).getByRole('cell').nth(1)).toHaveText('1');
  await expect(slotRow(ownersPoll, 0).getByRole('cell').nth(2)).toHaveText('1');
  await expect(slotRow(ownersPoll, 1).getByRole('cell').nth(1)).toHaveText('0');
  await expect(slotRow(ownersPoll, 1).getByRole('cell').nth(2)).toHaveText('1');
  await expect(slotRow(ownersPoll, 0)).toContainText('Best');
  await expect(ownersPoll.getByRole('columnheader', { name: ana.username })).toBeVisible();
  await expect(ownersPoll.getByRole('columnheader', { name: ben.username })).toBeVisible();
  const axe = await new AxeBuilder({ page })
    .include('article')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }))).toEqual([]);

  // The owner picks the first slot: the event is in the owner's calendar.
  await slotRow(ownersPoll, 0).getByRole('button', { name: 'Pick this time' }).click();
  await expect(ownersPoll.getByText(/^Picked time: /)).toBeVisible();
  await expect(syncStatus(page)).toHaveText('Synced');
  await page.goto(`/Upcoming/${owner.username}`);
  await expect(page.getByRole('region', { name: 'Future Events' }).getByText('Team offsite')).toBeVisible();

  // Each member accepts on the Calendar; the event joins their calendar.
  for (const [m, user] of [
    [a, ana],
    [b, ben],
  ] as const) {
    await m.page.goto(`/Calendar/${user.username}`);
    const invitations = m.page.getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('button', { name: 'Accept Team offsite' }).click();
    await expect(invitations).toBeHidden();
    await expect(syncStatus(m.page)).toHaveText('Synced');
    await m.page.goto(`/Upcoming/${user.username}`);
    await expect(m.page.getByRole('region', { name: 'Future Events' }).getByText('Team offsite')).toBeVisible();
  }

  // The pick's mail carries the event as a valid invite.ics.
  const mail = await pickMail(request, ana.email, 'Time picked: Team offsite');
  const ics = mail.attachments.find((file) => file.filename === 'invite.ics');
  expect(ics?.content_type).toMatch(/^text\/calendar/);
  const event = new ICAL.Component(ICAL.parse(ics!.content)).getFirstSubcomponent('vevent')!;
  expect(event.getFirstPropertyValue('summary')).toBe('Team offsite');
  const start = (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate();
  expect(start.toISOString().slice(0, 10)).toBe(dayFromNow(3));

  // Picked again: the second slot; Ana's accepted event moves with it.
  const anaEvent = a.page
    .getByRole('region', { name: 'Future Events' })
    .getByRole('listitem')
    .filter({ hasText: 'Team offsite' });
  const before = await anaEvent.innerText();
  await page.goto(`/Links/${owner.username}/dir/${dirId}`);
  await page.getByRole('tab', { name: 'Team Polls' }).click();
  await slotRow(ownersPoll, 1).getByRole('button', { name: 'Pick this time' }).click();
  await expect(syncStatus(page)).toHaveText('Synced');
  await a.page.reload();
  await expect(anaEvent).not.toHaveText(before);
  await expect(anaEvent).toBeVisible();
  const moved = await pickMail(request, ana.email, 'Time changed: Team offsite');
  const movedEvent = new ICAL.Component(ICAL.parse(moved.attachments[0]!.content)).getFirstSubcomponent('vevent')!;
  expect((movedEvent.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString().slice(0, 10)).toBe(
    dayFromNow(4),
  );
  expect(Number(movedEvent.getFirstPropertyValue('sequence'))).toBeGreaterThan(
    Number(event.getFirstPropertyValue('sequence')),
  );

  // Ana's workspace export carries her answers, slot by slot, and the invitation she accepted (its event included).
  await a.page.goto(`/Profile/${ana.username}`);
  const [download] = await Promise.all([
    a.page.waitForEvent('download'),
    a.page.getByRole('button', { name: 'Export everything (JSON)' }).click(),
  ]);
  const exported = JSON.parse(readFileSync((await download.path()) as string, 'utf8')) as WorkspaceExport;
  expect(exported.answers).toEqual([
    expect.objectContaining({
      poll_title: 'Team offsite',
      directory_id: dirId,
      answers: [
        expect.objectContaining({ answer: 'yes', start: expect.stringContaining(dayFromNow(3)) }),
        expect.objectContaining({ answer: 'maybe', start: expect.stringContaining(dayFromNow(4)) }),
      ],
    }),
  ]);
  const [accepted] = exported.invitations;
  expect(accepted).toMatchObject({ title: 'Team offsite', status: 'accepted', inviter_name: owner.username });
  expect(exported.events.map((item) => item.id)).toContain(accepted?.event_id);
  await a.context.close();
  await b.context.close();
});
