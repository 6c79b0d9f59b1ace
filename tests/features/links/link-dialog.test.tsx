// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { LinkDialog } from '../../../src/features/links/link-dialog.tsx';
import { spyUserDb } from '../../support/spy-user-db.ts';
import { makeLink } from '../../support/builders.ts';

let mutate: ReturnType<typeof vi.fn>;
let onClose: ReturnType<typeof vi.fn>;

beforeEach(() => {
  mutate = vi.fn().mockResolvedValue({ id: 'm1' });
  onClose = vi.fn();
});
afterEach(cleanup);

function renderDialog(tier: Tier = 'free', link: LinkRow | null = null) {
  const value = spyUserDb(mutate);
  render(
    <UserDbContext.Provider value={value}>
      <LinkDialog directoryId="d1" link={link} tier={tier} onClose={onClose as () => void} />
    </UserDbContext.Provider>,
  );
}

const existing = makeLink({
  id: 'l1',
  directory_id: 'd1',
  url: 'https://old.example',
  title: 'Old',
  tags: ['a'],
  created_by: 'u1',
  owner_id: 'u1',
});

describe('the Add/Edit Link dialog', () => {
  it('requires the url and the title', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual(['URL is required.', 'Title is required.']);
    // Each error is its field's description, read with it.
    expect(screen.getByLabelText('URL')).toHaveAccessibleDescription('URL is required.');
    expect(screen.getByLabelText('Title')).toHaveAccessibleDescription('Title is required.');
    expect(mutate).not.toHaveBeenCalled();
    // Fixing a field and sending again clears its error (only blanks count: spaces are blank).
    await user.type(screen.getByLabelText('URL'), 'example.com');
    await user.type(screen.getByLabelText('Title'), '   ');
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['Title is required.']);
    expect(mutate).not.toHaveBeenCalled();
  });

  it('refuses a title or notes pasted with a NUL character or a lone surrogate, queueing nothing', async () => {
    for (const bad of ['Pasted\u0000title', 'Cut emoji \ud83d']) {
      const user = userEvent.setup();
      renderDialog();
      await user.type(screen.getByLabelText('URL'), 'example.com');
      await user.click(screen.getByLabelText('Title'));
      await user.paste(bad);
      await user.click(screen.getByLabelText('Notes'));
      await user.paste(bad);
      await user.click(screen.getByRole('button', { name: 'Add Link' }));
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
        'A character in Title cannot be saved (a null character or half of an emoji). Remove it and try again.',
        'A character in Notes cannot be saved (a null character or half of an emoji). Remove it and try again.',
      ]);
      expect(mutate).not.toHaveBeenCalled();
      cleanup();
    }
  });

  it('queues one link for a double click on Add Link', async () => {
    let finish: (value: unknown) => void = () => undefined;
    mutate.mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('URL'), 'example.com');
    await user.type(screen.getByLabelText('Title'), 'Example');
    await user.dblClick(screen.getByRole('button', { name: 'Add Link' }));
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(mutate).toHaveBeenCalledTimes(1);
    finish({ id: 'm1' });
    await vi.waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(mutate).toHaveBeenCalledTimes(1);
  });

  it('prepends https:// and saves directory_id, url, title and notes', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('URL'), 'example.com/page');
    await user.type(screen.getByLabelText('Title'), '  Example ');
    await user.type(screen.getByLabelText('Notes'), 'read later');
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(mutate).toHaveBeenCalledWith(
      'link.create',
      {
        id: expect.any(String),
        directory_id: 'd1',
        url: 'https://example.com/page',
        title: 'Example',
        notes: 'read later',
      },
      expect.any(Function),
    );
    expect(onClose).toHaveBeenCalled();
  });

  it('saves once on Enter in a field (the form clicks its Add Link button)', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('URL'), 'example.com');
    await user.type(screen.getByLabelText('Title'), 'Example{Enter}');
    await vi.waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(mutate).toHaveBeenCalledTimes(1);
    expect(mutate).toHaveBeenCalledWith(
      'link.create',
      expect.objectContaining({ url: 'https://example.com' }),
      expect.any(Function),
    );
  });

  it('refuses anything but http and https', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('URL'), 'javascript:alert(1)');
    await user.type(screen.getByLabelText('Title'), 'Bad');
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Only http and https links can be saved.');
    expect(mutate).not.toHaveBeenCalled();
  });

  it('stays open when the mutator refuses (its toast explains why)', async () => {
    mutate.mockResolvedValue(null);
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('URL'), 'https://a.example');
    await user.type(screen.getByLabelText('Title'), 'A');
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(mutate).toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('offers no tags or favourite on Free', () => {
    renderDialog('free');
    expect(screen.queryByLabelText('Tags')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to favorites' })).not.toBeInTheDocument();
  });

  it('adds trimmed tags on Enter, ignoring duplicates, and the star on Pro', async () => {
    const user = userEvent.setup();
    renderDialog('pro');
    await user.type(screen.getByLabelText('URL'), 'http://b.example');
    await user.type(screen.getByLabelText('Title'), 'B');
    const tags = screen.getByLabelText('Tags');
    await user.type(tags, '  news {Enter}');
    await user.type(tags, 'news{Enter}');
    await user.type(tags, 'tech{Enter}');
    expect(tags).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Add to favorites' }));
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(mutate).toHaveBeenCalledWith(
      'link.create',
      expect.objectContaining({
        url: 'http://b.example',
        tags: ['news', 'tech'],
        is_favorite: true,
      }),
      expect.any(Function),
    );
  });

  it('edits an existing link with link.update', async () => {
    const user = userEvent.setup();
    renderDialog('pro', existing);
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'New');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(mutate).toHaveBeenCalledWith(
      'link.update',
      {
        id: 'l1',
        url: 'https://old.example',
        title: 'New',
        notes: null,
        tags: ['a'],
      },
      expect.any(Function),
    );
  });

  it('queues only the star when nothing else changed', async () => {
    const user = userEvent.setup();
    renderDialog('pro', existing);
    await user.click(
      screen.getByRole('button', { name: existing.is_favorite ? 'Remove from favorites' : 'Add to favorites' }),
    );
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(mutate.mock.calls.map(([name]) => name)).toEqual(['link.set_favorite']);
    expect(onClose).toHaveBeenCalled();
  });
});

describe('a failed save', () => {
  it("shows 'Failed to save link. Please try again.' and stays open", async () => {
    const { useToasts } = await import('../../../src/ui/toast-store.ts');
    mutate.mockRejectedValue(new Error('disk full'));
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('URL'), 'https://a.example');
    await user.type(screen.getByLabelText('Title'), 'A');
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(useToasts.getState().toasts.map((t) => t.message)).toContain('Failed to save link. Please try again.');
    expect(onClose).not.toHaveBeenCalled();
  });
});
