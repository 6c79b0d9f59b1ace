/**
 * The device's storage is full (docs/faults.md, Storage full): IndexedDB refuses a write with a
 * QuotaExceededError, and the change's transaction aborts with nothing of it stored or queued.
 * The user is told in the words of docs/product.md (Error messages); the queue already waiting
 * is untouched, and the same change can be made again once space is freed.
 */

export const STORAGE_FULL = 'Your device is out of storage space. Free some space, then try again.';

/** A change IndexedDB had no space for: shown like a refusal, with STORAGE_FULL. */
export class StorageFullError extends Error {
  constructor(readonly reason?: unknown) {
    super(STORAGE_FULL);
    this.name = 'StorageFullError';
  }
}

/**
 * Whether `error` (or an error it wraps: Dexie gives an aborted transaction's cause as `inner`,
 * others as `cause`) is the browser's QuotaExceededError.
 */
export function isQuotaError(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { name, code } = current as { name?: unknown; code?: unknown };
    // 22: DOMException's legacy QUOTA_EXCEEDED_ERR.
    if (name === 'QuotaExceededError' || (current instanceof DOMException && code === 22)) return true;
    const next = current as { inner?: unknown; cause?: unknown };
    current = next.inner ?? next.cause;
  }
  return false;
}

/** `error` as the user should see it: a StorageFullError when the device had no space, else itself. */
export function storageFullOr(error: unknown): unknown {
  return isQuotaError(error) && !(error instanceof StorageFullError) ? new StorageFullError(error) : error;
}
