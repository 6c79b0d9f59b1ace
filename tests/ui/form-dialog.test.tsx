// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormActions, FormDialog, RefusalAlert, useRefusal } from '../../src/ui/form-dialog.tsx';

afterEach(cleanup);

/** A dialog whose save is refused by the app, as a plan limit would refuse it. */
function RefusedForm({ onClose, onSubmit }: { onClose(): void; onSubmit(): void }) {
  const { refusal, show, clear } = useRefusal();
  const [busy, setBusy] = useState(false);
  return (
    <FormDialog title="Create Directory" description="Group related links in a directory." onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
          clear();
          setBusy(true);
          // The save answers later (IndexedDB), refused.
          setTimeout(() => {
            setBusy(false);
            show('Upgrade to Pro to create more directories.');
          }, 0);
        }}
      >
        <label>
          Name
          <input />
        </label>
        <RefusalAlert refusal={refusal} />
        <FormActions submit="Create Directory" busy={busy} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}

describe('a refused save in a form dialog', () => {
  it('is said inside the dialog, takes the focus, and one Escape closes the dialog', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<RefusedForm onClose={onClose} onSubmit={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Create Directory' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Upgrade to Pro to create more directories.');
    expect(screen.getByRole('dialog')).toContainElement(alert);
    await waitFor(() => expect(alert).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('is said again, and focused again, when the same save is refused twice', async () => {
    const user = userEvent.setup();
    render(<RefusedForm onClose={() => undefined} onSubmit={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Create Directory' }));
    const first = await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'Create Directory' }));
    const second = await screen.findByRole('alert');
    expect(second).not.toBe(first);
    expect(second).toHaveFocus();
  });
});

describe('the form actions while saving', () => {
  // A disabled button loses the focus to the page's body in a browser: the dialog then had none.
  it('keep the submit button enabled and focusable (aria-disabled), and ignore a second submit', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <FormActions submit="Save" busy onCancel={() => undefined} />
      </form>,
    );
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeEnabled();
    expect(save).toHaveAttribute('aria-disabled', 'true');
    await user.click(save);
    expect(onSubmit).not.toHaveBeenCalled();
    act(() => save.focus());
    expect(save).toHaveFocus();
  });
});
