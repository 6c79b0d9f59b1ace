/** One drainer at a time per user, across tabs and the worker (docs/sync-protocol.md, Client). */
export interface Lock {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** An in-memory mutex: tasks run one after another, in call order. */
export function createMutex(): Lock {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}

const mutexes = new Map<string, Lock>();

export function syncLockName(userId: string): string {
  return `linkboard-sync-${userId}`;
}

/**
 * Web Locks (`navigator.locks`) when available, so tabs and the service worker share it;
 * else one in-memory mutex per user for this JavaScript realm.
 */
export function createSyncLock(userId: string, locks: LockManager | undefined = globalThis.navigator?.locks): Lock {
  if (locks) {
    const name = syncLockName(userId);
    return { run: (task) => locks.request(name, task) };
  }
  let mutex = mutexes.get(userId);
  if (!mutex) {
    mutex = createMutex();
    mutexes.set(userId, mutex);
  }
  return mutex;
}
