import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from '../../src/timing/after-next-paint.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('afterNextPaint', () => {
  it('runs in the task after the next animation frame, not in the frame', async () => {
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => frames.push(run));
    const run = vi.fn();
    afterNextPaint(run);
    await vi.advanceTimersByTimeAsync(50);
    expect(run).not.toHaveBeenCalled();
    frames.shift()!();
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs after the current task where no frames run', async () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    const run = vi.fn();
    afterNextPaint(run);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('cancels before the frame and between the frame and its task', async () => {
    const frames = new Map<number, () => void>();
    let handles = 0;
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => {
      frames.set(++handles, run);
      return handles;
    });
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => frames.delete(handle));
    const before = vi.fn();
    afterNextPaint(before)();
    expect(frames.has(1)).toBe(false);
    const between = vi.fn();
    const cancel = afterNextPaint(between);
    frames.get(2)!();
    cancel();
    await vi.advanceTimersByTimeAsync(10);
    expect(before).not.toHaveBeenCalled();
    expect(between).not.toHaveBeenCalled();
  });
});
