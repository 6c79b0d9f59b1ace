// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { isValidElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { initialValues } from '../../../src/features/calendar/event-form-initial.ts';
import { useItemDialogs } from '../../../src/features/calendar/use-item-dialogs.tsx';

/** The dialog element inside the Suspense its chunk loads under (use-item-dialogs.tsx). */
function inner<P>(dialog: ReactNode): { props: P } {
  expect(isValidElement(dialog)).toBe(true);
  const child = (dialog as { props: { children: ReactNode } }).props.children;
  expect(isValidElement(child)).toBe(true);
  return child as { props: P };
}

describe('the calendar screens’ dialogs', () => {
  it('open an add asked for before the settings are read once they are, with the default reminder', () => {
    const { result, rerender } = renderHook(
      ({ reminder, read }: { reminder: number | null; read: boolean }) =>
        useItemDialogs('calendar', 'free', 'UTC', reminder, read),
      { initialProps: { reminder: null as number | null, read: false } },
    );
    act(() => result.current.add());
    // The click is kept, not shown with the defaults a moment before the profile arrives.
    expect(result.current.dialog).toBeNull();
    rerender({ reminder: 60, read: true });
    expect(inner<{ defaultReminder: number | null }>(result.current.dialog).props.defaultReminder).toBe(60);
  });

  it('open an add as a task when asked (the command palette’s Add Task, ?new=task)', () => {
    const { result } = renderHook(() => useItemDialogs('calendar', 'free', 'UTC'));
    act(() => result.current.add(undefined, true));
    expect(inner<{ task: boolean }>(result.current.dialog).props.task).toBe(true);
    act(() => result.current.add());
    expect(inner<{ task: boolean }>(result.current.dialog).props.task).toBe(false);
    expect(initialValues(null, 'UTC', undefined, null, true).isTask).toBe(true);
    expect(initialValues(null, 'UTC').isTask).toBe(false);
  });
});
