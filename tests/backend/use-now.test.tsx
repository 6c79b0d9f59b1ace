// @vitest-environment jsdom
/** useNow: a clock that re-renders every interval while running, and not at all while stopped. */
import { act, render } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useNow } from '../../src/backend/use-now.ts';

/** Each render's time, noted after the render. */
function Clock({ running, seen }: { running: boolean; seen: number[] }) {
  const now = useNow(60_000, running).getTime();
  useEffect(() => {
    seen.push(now);
  });
  return null;
}

describe('useNow', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-27T10:00:00Z') });
  });
  afterEach(() => vi.useRealTimers());

  it('re-renders once a minute while running', () => {
    const seen: number[] = [];
    render(<Clock running seen={seen} />);
    expect(seen).toHaveLength(1);
    for (let minute = 0; minute < 3; minute++) act(() => vi.advanceTimersByTime(60_000));
    expect(seen).toHaveLength(4);
    expect(seen.at(-1)).toBe(Date.parse('2026-11-27T10:03:00Z'));
  });

  it('stopped, it renders nothing; started after a missed tick, it reads the time at once', () => {
    const seen: number[] = [];
    const view = render(<Clock running={false} seen={seen} />);
    act(() => vi.advanceTimersByTime(10 * 60_000));
    expect(seen).toHaveLength(1);
    act(() => view.rerender(<Clock running seen={seen} />));
    act(() => vi.advanceTimersByTime(0));
    expect(seen.at(-1)).toBe(Date.parse('2026-11-27T10:10:00Z'));
    const afterStart = seen.length;
    act(() => vi.advanceTimersByTime(30_000));
    expect(seen).toHaveLength(afterStart);
  });
});

describe('useNow and the server clock', () => {
  it("reads the time again at once when a server answer corrects the device's clock", async () => {
    const { learnServerTime } = await import('../../src/backend/server-clock.ts');
    const seen: number[] = [];
    render(<Clock running seen={seen} />);
    const device = Date.now();
    act(() => learnServerTime(device - 3 * 86_400_000, device, device));
    expect(seen.at(-1)).toBeLessThan(device - 3 * 86_400_000 + 1000);
    act(() => learnServerTime(Date.now(), Date.now(), Date.now()));
    expect(Math.abs(seen.at(-1)! - Date.now())).toBeLessThan(1000);
  });
});
