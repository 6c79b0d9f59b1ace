import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => {
  vi.resetModules();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const load = () => import('../../src/ui/screen-shown.ts');

describe('work that waits for the first screen', () => {
  it('runs after the frame that paints the screen, not before', async () => {
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => frames.push(run));
    const { afterScreenShown, markScreenShown } = await load();
    const run = vi.fn();
    afterScreenShown(run, 1_000);
    markScreenShown();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).not.toHaveBeenCalled();
    frames.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    // Asked once the screen is shown: at once (on a later task).
    const later = vi.fn();
    afterScreenShown(later, 1_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('runs after its limit on a screen that never says, once, and not when cancelled', async () => {
    const { afterScreenShown, markScreenShown } = await load();
    const run = vi.fn();
    const cancelled = vi.fn();
    afterScreenShown(run, 1_000);
    afterScreenShown(cancelled, 1_000)();
    await vi.advanceTimersByTimeAsync(999);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    markScreenShown();
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
