// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast, useToasts } from '../../src/ui/toast-store.ts';
import { Toaster } from '../../src/ui/toaster.tsx';

beforeEach(() => useToasts.setState({ toasts: [] }));
afterEach(cleanup);

/** Radix Toast's announcer: a visually hidden live region that speaks each new toast. */
const announcer = () => screen.getByRole('status');

describe('the toast area', () => {
  it('announces an error (a sync rejection) assertively', async () => {
    render(<Toaster />);
    act(() => void toast('Upgrade to Pro to save more links.', 'error'));
    expect(screen.getByText('Upgrade to Pro to save more links.')).toBeVisible();
    expect(announcer()).toHaveAttribute('aria-live', 'assertive');
    await waitFor(() => expect(announcer()).toHaveTextContent('Notification Upgrade to Pro to save more links.'));
  });

  it('announces other notices politely', async () => {
    render(<Toaster />);
    act(() => void toast('Profile saved.', 'success'));
    expect(announcer()).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(announcer()).toHaveTextContent('Profile saved.'));
  });

  it('sits in a landmark that F8 reaches', () => {
    render(<Toaster />);
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toBeInTheDocument();
  });

  it('leaves after five seconds (an error after eight), or at once with Dismiss', () => {
    vi.useFakeTimers();
    try {
      render(<Toaster />);
      act(() => void toast('Link saved.', 'success'));
      expect(screen.getByText('Link saved.')).toBeVisible();
      act(() => void vi.advanceTimersByTime(5100));
      expect(useToasts.getState().toasts).toEqual([]);
      act(() => void toast('Upgrade to Pro to save more links.', 'error'));
      act(() => void vi.advanceTimersByTime(5100));
      expect(screen.getByText('Upgrade to Pro to save more links.')).toBeVisible();
      act(() => void vi.advanceTimersByTime(3000));
      expect(useToasts.getState().toasts).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
    act(() => void toast('Directory created.', 'success'));
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    expect(useToasts.getState().toasts).toEqual([]);
  });

  it('waits while hovered, and goes once the pointer leaves', () => {
    vi.useFakeTimers();
    try {
      render(<Toaster />);
      act(() => void toast('Link saved.', 'success'));
      const area = screen.getByRole('region', { name: 'Notifications (F8)' });
      fireEvent.pointerMove(area);
      act(() => void vi.advanceTimersByTime(20_000));
      expect(screen.getByText('Link saved.')).toBeVisible();
      fireEvent.pointerLeave(area);
      act(() => void vi.advanceTimersByTime(5100));
      expect(useToasts.getState().toasts).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  // The toast that followed the user from page to page: Radix's viewport kept its 'paused' flag
  // once the last toast left while hovered, and no later toast ever started its timer.
  it('still times out a toast that comes after one dismissed while hovered', () => {
    vi.useFakeTimers();
    try {
      render(<Toaster />);
      act(() => void toast('Upgrade to Pro to create more directories.', 'error'));
      fireEvent.pointerMove(screen.getByRole('region', { name: 'Notifications (F8)' }));
      act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
      expect(useToasts.getState().toasts).toEqual([]);
      act(() => void toast('Upgrade to Pro to save more links.', 'error'));
      act(() => void vi.advanceTimersByTime(8100));
      expect(useToasts.getState().toasts).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
