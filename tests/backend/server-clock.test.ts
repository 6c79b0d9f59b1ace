/** The app's clock (src/backend/server-clock.ts): the device's, corrected by the server's answers. */
import { beforeEach, describe, expect, it, vi } from 'vitest';

type Clock = typeof import('../../src/backend/server-clock.ts');
const DAY = 86_400_000;

describe('the server clock', () => {
  let clock: Clock;
  const stored = new Map<string, string>();
  beforeEach(async () => {
    stored.clear();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    });
    vi.resetModules();
    clock = await import('../../src/backend/server-clock.ts');
  });

  it('follows a device clock set 3 days ahead back to the server time, and keeps the offset for the next start', async () => {
    const device = Date.now();
    // The device reads 3 days later than the server: the server answered in the middle of a 200 ms trip.
    clock.learnServerTime(device - 3 * DAY + 100, device, device + 200);
    expect(clock.clockOffsetMs()).toBe(-3 * DAY);
    expect(Math.abs(clock.appNowMs() - (Date.now() - 3 * DAY))).toBeLessThan(50);
    vi.resetModules();
    const nextStart: Clock = await import('../../src/backend/server-clock.ts');
    expect(nextStart.clockOffsetMs()).toBe(-3 * DAY);
  });

  it('follows a clock 3 days behind forward', () => {
    const device = Date.now();
    clock.learnServerTime(device + 3 * DAY, device, device);
    expect(clock.clockOffsetMs()).toBe(3 * DAY);
    expect(clock.appNow().getTime()).toBeGreaterThanOrEqual(Date.now() + 3 * DAY - 50);
  });

  it('takes a right clock as right (network noise), and forgets an offset once the clock is right', () => {
    const device = Date.now();
    clock.learnServerTime(device + 3 * DAY, device, device);
    clock.learnServerTime(device + 800, device, device + 400);
    expect(clock.clockOffsetMs()).toBe(0);
    expect(stored.has('lb_clock_offset')).toBe(false);
  });

  it('learns nothing from a slow answer or from what is not a time', () => {
    const device = Date.now();
    clock.learnServerTime(device + DAY, device, device + 30_000);
    clock.learnServerTime('soon', device, device);
    clock.learnServerTime(Number.NaN, device, device);
    clock.learnServerTime(device + DAY, device + 10, device);
    expect(clock.clockOffsetMs()).toBe(0);
  });

  it('starts from a stored offset that is not a number as if none were stored', async () => {
    stored.set('lb_clock_offset', 'garbage');
    vi.resetModules();
    const fresh: Clock = await import('../../src/backend/server-clock.ts');
    expect(fresh.clockOffsetMs()).toBe(0);
  });
});
