// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../../src/backend/supabase.ts', () => ({ supabase: { rpc: vi.fn() } }));
vi.mock('../../../src/backend/functions.ts');

import { AboutPage } from '../../../src/features/marketing/about-page.tsx';
import { ContactPage } from '../../../src/features/marketing/contact-page.tsx';
import { FeaturesPage } from '../../../src/features/marketing/features-page.tsx';
import { GdprPage } from '../../../src/features/marketing/gdpr-page.tsx';
import { PrivacyPage } from '../../../src/features/marketing/privacy-page.tsx';
import { PublicLayout } from '../../../src/ui/public-layout.tsx';

function renderPage(Page: ComponentType) {
  render(
    <MemoryRouter>
      <PublicLayout>
        <Page />
      </PublicLayout>
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe('public pages', () => {
  it.each([
    ['Privacy', PrivacyPage],
    ['GDPR', GdprPage],
    ['About', AboutPage],
  ] as const)('%s is dated September 25, 2025 and sets its title', (title, Page) => {
    renderPage(Page);
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Last updated: September 25, 2025')).toBeInTheDocument();
    expect(document.title).toBe(`${title} — Linkboard`);
  });

  it('the privacy page names the stored data and cookies', () => {
    renderPage(PrivacyPage);
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent('IndexedDB');
    expect(main).toHaveTextContent('lb_cookie_consent');
    expect(main).toHaveTextContent('Sidebar state');
  });

  it('the features page shows the plans with their prices', () => {
    renderPage(FeaturesPage);
    expect(document.title).toBe('Features — Linkboard');
    const table = screen.getByRole('table');
    for (const text of ['$4.99 a month', '$50 a year', 'Save $10/year', '$9.99 per user a month', 'Save $20/year'])
      expect(table).toHaveTextContent(text);
    expect(within(table).getByRole('rowheader', { name: 'Team' })).toBeInTheDocument();
  });

  it('the contact page shows the labelled form', () => {
    renderPage(ContactPage);
    expect(document.title).toBe('Contact — Linkboard');
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toBeInTheDocument();
  });

  it('the layout links to the public pages and to sign in', () => {
    renderPage(AboutPage);
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Features' })).toHaveAttribute('href', '/Features');
    expect(within(main).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/Login');
    const footer = screen.getByRole('contentinfo');
    for (const [name, href] of [
      ['Privacy', '/Privacy'],
      ['GDPR', '/GDPR'],
      ['About', '/About'],
      ['Contact', '/Contact'],
    ])
      expect(within(footer).getByRole('link', { name })).toHaveAttribute('href', href);
    expect(footer).toHaveTextContent('©');
    expect(screen.getByRole('link', { name: 'Linkboard' })).toHaveAttribute('href', '/');
  });
});
