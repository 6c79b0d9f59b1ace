/**
 * A test-only fault hook of the local stack (docs/faults.md, "The stack's fault hook"): with
 * LINKBOARD_FAULT_PUSH_HOLD_FILE set, a `sync_push` request is held at a named point for as long
 * as that file exists and names the point, so the fault suite can kill the stack there. Unset (as
 * everywhere but the fault suite), every call returns at once and nothing is read. Hosted installs
 * never run this code: their PostgREST serves /rest/v1 (docs/architecture.md).
 */
import { readFileSync } from 'node:fs';

/**
 * Where a push is held: before its transaction begins, inside it after `sync_push` ran but before
 * COMMIT, or after COMMIT before the HTTP answer leaves.
 */
export type PushHoldPoint = 'before-transaction' | 'before-commit' | 'after-commit';

const HOLD_FILE = process.env.LINKBOARD_FAULT_PUSH_HOLD_FILE || null;

/** Whether the hook is on in this process (the stack says so when it starts). */
export const pushHoldFile = (): string | null => HOLD_FILE;

function heldAt(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Holds a request to `fn` at `point` while the hold file names it (only `sync_push` is ever held).
 * Prints `[fault] sync_push held <point>` once per held request, which the fault suite waits for.
 */
export async function holdPush(fn: string, point: PushHoldPoint): Promise<void> {
  if (!HOLD_FILE || fn !== 'sync_push' || heldAt(HOLD_FILE) !== point) return;
  console.log(`[fault] sync_push held ${point}`);
  while (heldAt(HOLD_FILE) === point) await new Promise((resolve) => setTimeout(resolve, 25));
  console.log(`[fault] sync_push released ${point}`);
}
