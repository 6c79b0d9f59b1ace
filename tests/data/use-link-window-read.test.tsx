// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { useWindowRead } from '../../src/data/use-link-window-read.ts';
import { afterNextPaint } from '../../src/timing/after-next-paint.ts';
import { freshDb } from './helpers.ts';

describe("the Links screen's window read", () => {
  it('renders a window at hand in the render asking for it, and reads it neither then nor after', async () => {
    const db = freshDb();
    const reads: number[] = [];
    const read = async (_db: LinkboardDb, _directory: string, from: number, to: number) => {
      reads.push(from);
      return `read ${from}-${to}`;
    };
    // Windows from 100 on are at hand (as the held links answer them).
    const atHand = (from: number, to: number) => (from >= 100 ? `held ${from}-${to}` : undefined);
    const view = renderHook(({ from }: { from: number }) => useWindowRead(db, 'd1', from, from + 10, read, atHand), {
      initialProps: { from: 0 },
    });
    await waitFor(() => expect(view.result.current).toBe('read 0-10'));
    view.rerender({ from: 200 });
    expect(view.result.current).toBe('held 200-210');
    // A frame and the timers after it, when the live query would have moved to the window, then a
    // render again (the test's document runs a live query's first read once React renders again):
    // no read of it, the held window still shown.
    await act(() => new Promise((resolve) => afterNextPaint(() => setTimeout(resolve, 50))));
    view.rerender({ from: 200 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(reads).toEqual([0]);
    expect(view.result.current).toBe('held 200-210');
    // A window not at hand is read at once, then followed by the live query.
    view.rerender({ from: 50 });
    await waitFor(() => expect(view.result.current).toBe('read 50-60'));
    await waitFor(() => expect(reads.filter((from) => from === 50)).toHaveLength(2));
  });
});
