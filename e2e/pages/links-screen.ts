import { expect, type Page } from '@playwright/test';

/** The Links screen: the directory grid and a selected directory (docs/product.md, Links screen). */
export class LinksScreen {
  constructor(private readonly page: Page) {}

  async open(username: string) {
    await this.page.goto(`/Links/${username}`);
    await expect(this.page.getByRole('heading', { name: 'My Links' })).toBeVisible();
  }

  card(name: string) {
    return this.page.getByRole('button', { name: `Open ${name}` });
  }

  async createDirectory(name: string) {
    await this.page.getByRole('button', { name: /Create New Directory/ }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Create Directory' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Create Directory' }).click();
    await expect(dialog).toBeHidden();
  }

  async openDirectory(name: string) {
    await this.card(name).click();
    await expect(this.page.getByRole('heading', { name })).toBeVisible();
  }

  async addLink(url: string, title: string) {
    await this.page.getByRole('button', { name: 'Add Link', exact: true }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Add Link' });
    await dialog.getByLabel('URL').fill(url);
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByRole('button', { name: 'Add Link' }).click();
    await expect(dialog).toBeHidden();
  }

  async invite(email: string) {
    await this.page.getByRole('button', { name: 'Invite', exact: true }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Invite to Directory' });
    await dialog.getByLabel('Email').fill(email);
    await expect(dialog.getByLabel('Role')).toHaveValue('viewer');
    await dialog.getByRole('button', { name: 'Send Invite' }).click();
    await expect(dialog).toBeHidden();
  }

  async openMembers() {
    await this.page.getByRole('button', { name: 'Members', exact: true }).click();
    return this.page.getByRole('dialog', { name: 'Manage Members' });
  }

  syncStatus() {
    return this.page.getByRole('status', { name: 'Sync status' });
  }
}
