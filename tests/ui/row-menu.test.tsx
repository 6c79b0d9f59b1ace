// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RowMenu } from '../../src/ui/row-menu.tsx';

afterEach(cleanup);

const button = () => screen.getByRole('button', { name: 'Actions for Alpha' });

function renderMenu(chosen: string[], rowClicks: string[] = []) {
  const items = ['Edit', 'Share', 'Delete'].map((label) => ({ label, onSelect: () => chosen.push(label) }));
  render(
    // A row that opens something on click: the menu's clicks must not reach it.
    <div role="presentation" onClick={() => rowClicks.push('row')}>
      <RowMenu label="Actions for Alpha" items={items} isolated />
    </div>,
  );
}

describe('a row menu', () => {
  it('is a closed menu button until it is used, with no menu mounted', () => {
    renderMenu([]);
    expect(button()).toHaveAttribute('aria-haspopup', 'menu');
    expect(button()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('opens on the first click, keeps the click from the row, and runs the chosen item', () => {
    const chosen: string[] = [];
    const rowClicks: string[] = [];
    renderMenu(chosen, rowClicks);
    fireEvent.click(button());
    expect(rowClicks).toEqual([]);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(button()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Edit', 'Share', 'Delete']);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Share' }));
    expect(chosen).toEqual(['Share']);
    expect(rowClicks).toEqual([]);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it.each(['Enter', ' ', 'ArrowDown'])('opens from the keyboard (%j) with the first item focused', async (key) => {
    renderMenu([]);
    button().focus();
    fireEvent.keyDown(button(), { key });
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveFocus();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    // Radix gives the focus back on the next task.
    await waitFor(() => expect(button()).toHaveFocus());
  });

  it('ignores other keys until it is opened', () => {
    renderMenu([]);
    fireEvent.keyDown(button(), { key: 'a' });
    fireEvent.keyDown(button(), { key: 'Tab' });
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
