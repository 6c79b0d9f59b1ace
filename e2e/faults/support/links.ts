/** Links made and changed through the app's own dialogs on a device (docs/faults.md). */
import { expect } from '@playwright/test';
import type { Device } from './devices.ts';

/** Opens the directory's page and waits for its heading. */
export async function openDirectory(device: Device, username: string, dirId: string, name: string): Promise<void> {
  await device.page.goto(`/Links/${username}/dir/${dirId}`);
  await expect(device.page.getByRole('heading', { name })).toBeVisible();
}

/**
 * Opens the open directory's Add Link dialog and closes it, so its code is loaded: a device with no
 * service worker cannot fetch it once offline. (The screen fetches it when idle too; waiting for the
 * dialog does not depend on how soon that is.)
 */
export async function loadLinkDialog(device: Device): Promise<void> {
  await device.page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = device.page.getByRole('dialog', { name: 'Add Link' });
  await expect(dialog).toBeVisible();
  await device.page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

/** Adds a link through the Add Link dialog (saved on the device at once, pushed when it can be). */
export async function addLink(device: Device, title: string, url: string): Promise<void> {
  await device.page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = device.page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill(url);
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(dialog).toBeHidden();
}

/** Renames a link through its Edit dialog (a link.update). */
export async function renameLink(device: Device, title: string, next: string): Promise<void> {
  await device.page.getByRole('button', { name: `Actions for ${title}` }).click();
  await device.page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = device.page.getByRole('dialog', { name: 'Edit Link' });
  await dialog.getByLabel('Title').fill(next);
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
}
