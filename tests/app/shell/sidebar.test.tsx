// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Sidebar } from '../../../src/app/shell/sidebar.tsx';

afterEach(cleanup);

const user = {
  id: 'u1',
  email: 'ada@example.com',
  username: 'ada',
  full_name: 'Ada Lovelace',
  bio: null,
  subscription_tier: 'free',
  time_zone: 'UTC',
};

describe('the sidebar', () => {
  it("lists the Workspace group of the product's navigation, the voting board included (docs/product.md, Route rules)", () => {
    render(
      <MemoryRouter>
        <Sidebar user={user} collapsed={false} onLogout={vi.fn()} />
      </MemoryRouter>,
    );
    const group = screen.getByRole('heading', { name: 'Workspace' }).parentElement!;
    const links = within(group).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Dashboard', '/Dashboard/ada'],
      ['My Links', '/Links/ada'],
      ['Calendar', '/Calendar/ada'],
      ['Upcoming', '/Upcoming/ada'],
      ['Voting', '/Voting/ada'],
    ]);
  });

  it('names the voting board when collapsed too', () => {
    render(
      <MemoryRouter>
        <Sidebar user={user} collapsed onLogout={vi.fn()} />
      </MemoryRouter>,
    );
    expect(screen.getByTitle('Voting')).toHaveAttribute('href', '/Voting/ada');
  });
});
