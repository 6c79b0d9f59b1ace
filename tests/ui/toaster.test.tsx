// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toast, useToasts } from '../../src/ui/toast-store.ts';
import { Toaster } from '../../src/ui/toaster.tsx';

beforeEach(() => useToasts.setState({ toasts: [] }));
afterEach(cleanup);

describe('the toast area', () => {
  it('announces an error (a sync rejection) as an alert', () => {
    render(<Toaster />);
    act(() => void toast('Upgrade to Pro to save more links.', 'error'));
    expect(screen.getByRole('alert')).toHaveTextContent('Upgrade to Pro to save more links.');
  });

  it('announces other notices politely', () => {
    render(<Toaster />);
    act(() => void toast('Profile saved.', 'success'));
    expect(screen.getByRole('status')).toHaveTextContent('Profile saved.');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
