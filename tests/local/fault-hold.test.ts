/**
 * The stack's fault hook (docs/faults.md, The stack's fault hook): off unless
 * LINKBOARD_FAULT_PUSH_HOLD_FILE is set, and then holding only sync_push, only at the point the file
 * names, only while the file exists.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';

const load = () => import('../../supabase/local/fault-hold.ts');

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

it('is off when the variable is unset, even with a file that names a point', async () => {
  vi.stubEnv('LINKBOARD_FAULT_PUSH_HOLD_FILE', '');
  const dir = mkdtempSync(join(tmpdir(), 'lb-hold-'));
  writeFileSync(join(dir, 'hold'), 'before-commit');
  const { holdPush, pushHoldFile } = await load();
  expect(pushHoldFile()).toBeNull();
  await holdPush('sync_push', 'before-commit');
  rmSync(dir, { recursive: true, force: true });
});

it('holds sync_push at the named point while the file exists, and nothing else', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lb-hold-'));
  const file = join(dir, 'hold');
  vi.stubEnv('LINKBOARD_FAULT_PUSH_HOLD_FILE', file);
  const { holdPush, pushHoldFile } = await load();
  expect(pushHoldFile()).toBe(file);
  // No file: nothing held.
  await holdPush('sync_push', 'before-commit');
  writeFileSync(file, 'before-commit\n');
  // Another function, another point: not held.
  await holdPush('sync_pull', 'before-commit');
  await holdPush('sync_push', 'after-commit');
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  let released = false;
  const held = holdPush('sync_push', 'before-commit').then(() => (released = true));
  expect(log).toHaveBeenCalledWith('[fault] sync_push held before-commit');
  // Held until the file goes.
  await new Promise((resolve) => setImmediate(resolve));
  expect(released).toBe(false);
  rmSync(file);
  await held;
  expect(log).toHaveBeenCalledWith('[fault] sync_push released before-commit');
  rmSync(dir, { recursive: true, force: true });
});
