import { afterEach, describe, expect, it, vi } from 'vitest';
import { Temporal as Polyfill } from 'temporal-polyfill';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('temporal-runtime (the app build’s temporal-polyfill)', () => {
  it('uses the browser’s own Temporal and loads nothing where there is one', async () => {
    const native = { Now: Polyfill.Now, marker: 'native' };
    vi.stubGlobal('Temporal', native);
    const runtime = await import('../../src/domain/temporal-runtime.ts');
    expect(runtime.Temporal).toBe(native);
    expect(runtime.loadTemporal()).toBeUndefined();
    expect(runtime.Temporal).toBe(native);
  });

  it('loads the polyfill where the runtime has none, before anything reads it', async () => {
    vi.stubGlobal('Temporal', undefined);
    const runtime = await import('../../src/domain/temporal-runtime.ts');
    expect(runtime.Temporal).toBeUndefined();
    await runtime.loadTemporal();
    const zoned = runtime.Temporal.Instant.from('2026-03-29T00:30:00Z').toZonedDateTimeISO('Europe/Berlin');
    expect(zoned.add({ hours: 1 }).toString()).toBe('2026-03-29T03:30:00+02:00[Europe/Berlin]');
    expect(runtime.loadTemporal()).toBeUndefined();
  });
});
