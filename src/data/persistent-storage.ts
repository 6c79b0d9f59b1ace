/**
 * Persistent storage (docs/faults.md, Storage evicted): after sign-in the app asks the browser,
 * once per device, to keep its data (`navigator.storage.persist()`), so changes waiting to be sent
 * are not cleared when space runs low. Profile says why (docs/product.md, Profile).
 */

/** Set once the browser has been asked on this device. */
export const PERSIST_ASKED_KEY = 'lb_persist_asked';

/** Profile's line: why the app asks the browser to keep its data. */
export const PERSISTENT_STORAGE_NOTE =
  'Linkboard asks your browser to keep its data on this device, so changes you make offline are not cleared when space runs low.';

/**
 * Asks for persistent storage unless it is granted already or was asked before on this device.
 * Returns whether the data is kept (null where the browser has no such choice).
 */
export async function askPersistentStorage(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
  local: Storage | undefined = globalThis.localStorage,
): Promise<boolean | null> {
  if (!storage?.persist || !storage.persisted || !local) return null;
  if (await storage.persisted()) return true;
  if (local.getItem(PERSIST_ASKED_KEY) !== null) return false;
  local.setItem(PERSIST_ASKED_KEY, new Date().toISOString());
  return storage.persist();
}
