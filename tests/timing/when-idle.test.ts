import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from '../../src/timing/when-idle.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it('asks for an idle callback with the timeout, and cancels it', () => {
    const asked: { run: () => void; timeout?: number }[] = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void, options?: { timeout?: number }) => {
      asked.push({ run, timeout: options?.timeout });
      return asked.length;
    });
    vi.stubGlobal('cancelIdleCallback', (handle: number) => cancelled.push(handle));
    const run = vi.fn();
    const cancel = whenIdle(run, 3_000, 1_000);
    expect(asked.map((a) => a.timeout)).toEqual([3_000]);
    expect(run).not.toHaveBeenCalled();
    asked[0]!.run();
    expect(run).toHaveBeenCalledTimes(1);
    cancel();
    expect(cancelled).toEqual([1]);
  });

  it('falls back to a timer where the browser has no idle callbacks, and cancels it', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const run = vi.fn();
    whenIdle(run, 3_000, 1_000);
    vi.advanceTimersByTime(999);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    const other = vi.fn();
    whenIdle(other, 3_000, 1_000)();
    vi.advanceTimersByTime(5_000);
    expect(other).not.toHaveBeenCalled();
  });
});
