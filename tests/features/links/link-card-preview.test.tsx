// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '@testing-library/jest-dom/vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { previewAsks } from '../../../src/data/preview-asks.ts';
import type { LinkRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { LinkCard } from '../../../src/features/links/link-card.tsx';
import { LinkRowItem } from '../../../src/features/links/link-row.tsx';
import { makeLink, ME } from '../../support/builders.ts';
import { freshDb } from '../../data/helpers.ts';
import { userDbValue } from './user-db-value.ts';

const noop = () => undefined;

function show(link: LinkRow, canEdit = true, view: 'card' | 'row' = 'card') {
  const db = freshDb();
  const Item = view === 'card' ? LinkCard : LinkRowItem;
  render(
    <UserDbContext.Provider value={userDbValue(db, { id: ME, email: 'me@example.com', tier: 'pro' })}>
      <Item link={link} canEdit={canEdit} onEdit={noop} onDelete={noop} />
    </UserDbContext.Provider>,
  );
  return db;
}

describe('a link card with what the server read of its page', () => {
  it('shows the icon, the preview image and the site name, through link-image', () => {
    const link = makeLink({
      title: 'The article',
      url: 'https://news.example/a',
      site_name: 'Example News',
      icon_url: 'https://news.example/favicon.png',
      image_url: 'https://news.example/cover.png',
      preview_state: 'done',
      previewed_at: '2026-11-27T01:00:00.000Z',
    });
    show(link);
    const icon = screen.getByTestId('link-icon');
    expect(icon.getAttribute('src')).toMatch(
      new RegExp(`/functions/v1/link-image\\?link=${link.id}&kind=icon&v=2026-11-27T01%3A00%3A00.000Z$`),
    );
    expect(screen.getByTestId('link-image').getAttribute('src')).toContain(`link=${link.id}&kind=image`);
    expect(screen.getByText(/Example News ·/)).toBeInTheDocument();
    expect(screen.queryByText('No preview')).not.toBeInTheDocument();
  });

  it('shows no picture for a link not read yet, and none of another page’s', () => {
    show(makeLink({ title: 'Plain' }));
    expect(screen.queryByTestId('link-icon')).not.toBeInTheDocument();
    expect(screen.queryByTestId('link-image')).not.toBeInTheDocument();
  });

  it('says No preview for a page that failed, and Retry asks again for who may edit', async () => {
    const link = makeLink({ title: 'Down', preview_state: 'failed', previewed_at: '2026-11-27T01:00:00.000Z' });
    const db = show(link);
    expect(screen.getByText('No preview')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(async () => expect(await previewAsks(db)).toEqual([{ id: link.id, retry: true }]));
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDisabled();
  });

  it('offers no Retry to a viewer, and marks a broken link on the row', () => {
    show(makeLink({ title: 'Gone', preview_state: 'failed', broken_at: '2026-11-20T00:00:00.000Z' }), false, 'row');
    expect(screen.getByText('No preview')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.getByText('Broken link')).toBeInTheDocument();
  });
});
