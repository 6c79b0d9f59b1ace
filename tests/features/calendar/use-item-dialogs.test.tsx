// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { isValidElement } from 'react';
import { describe, expect, it } from 'vitest';
import { useItemDialogs } from '../../../src/features/calendar/use-item-dialogs.tsx';

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
    const dialog = result.current.dialog;
    expect(isValidElement(dialog)).toBe(true);
    expect((dialog as { props: { defaultReminder: number | null } }).props.defaultReminder).toBe(60);
  });
});
