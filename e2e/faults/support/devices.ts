/** Devices of one user on a fault stack: browser contexts signed in to it (docs/faults.md). */
import { expect, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { LoginPage, newUser } from '../../pages/login-page.ts';
import { readyOffline, syncStatus } from '../../support/workspace.ts';
import { setTier } from '../../support/admin.ts';
import type { FaultStack } from './fault-stack.ts';

export interface Device {
  context: BrowserContext;
  page: Page;
}

export type User = ReturnType<typeof newUser>;

/**
 * A new account on the stack (on Pro: a fault run makes more than the Free plan's links), signed in on
 * one device, which is ready to work offline (its service worker controls the page) unless the
 * options block service workers.
 */
export async function firstDevice(
  browser: Browser,
  stack: FaultStack,
  prefix: string,
  options: BrowserContextOptions = {},
): Promise<Device & { user: User }> {
  const user = newUser(prefix);
  const context = await browser.newContext({ ...options, baseURL: stack.url });
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await setTier(stack.url, user, 'pro');
  await expect(syncStatus(page)).toHaveText('Synced');
  if (options.serviceWorkers !== 'block') await readyOffline(page);
  return { context, page, user };
}

/** The same user signed in on another device, ready to work offline as `firstDevice`'s. */
export async function otherDevice(
  browser: Browser,
  stack: FaultStack,
  user: User,
  options: BrowserContextOptions = {},
): Promise<Device> {
  const context = await browser.newContext({ ...options, baseURL: stack.url });
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await expect(syncStatus(page)).toHaveText('Synced');
  if (options.serviceWorkers !== 'block') await readyOffline(page);
  return { context, page };
}
