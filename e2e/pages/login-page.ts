import { expect, type Page } from '@playwright/test';

let counter = 0;

/** A new user's credentials, unique per run. */
export function newUser(prefix = 'user') {
  const tag = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  return { email: `${prefix}-${tag}@example.com`, password: 'correct-horse-battery', username: `${prefix}_${tag}` };
}

export class LoginPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/Login');
    await expect(this.page.getByRole('heading', { name: /welcome back|create your account/i })).toBeVisible();
  }

  async signUp(user: { email: string; password: string; username: string }) {
    await this.page.getByRole('button', { name: 'Create an account' }).click();
    await this.page.getByLabel('Email').fill(user.email);
    await this.page.getByLabel('Password').fill(user.password);
    await this.page.getByLabel('Username').fill(user.username);
    await this.page.getByRole('button', { name: 'Create account' }).click();
  }

  async signIn(user: { email: string; password: string }) {
    await this.page.getByLabel('Email').fill(user.email);
    await this.page.getByLabel('Password').fill(user.password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }
}
