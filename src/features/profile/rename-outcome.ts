import { liveQuery } from 'dexie';
import type { LinkboardDb } from '../../data/db.ts';

export type RenameOutcome = 'saved' | 'refused';

/**
 * What became of a queued rename, once the server answered: its mutation left the outbox (in
 * the transaction that restored refused rows), and the profile kept the new username (saved)
 * or not (refused: the sync engine shows why). A mutation that keeps failing counts as refused
 * (the failed-changes panel shows it). Never settles while the rename waits offline.
 */
export function renameOutcome(db: LinkboardDb, mutationId: string, username: string): Promise<RenameOutcome> {
  const state = liveQuery(() =>
    db.transaction('r', db.outbox, db.user_profiles, async () => {
      const row = await db.outbox.where('id').equals(mutationId).first();
      if (row) return row.status === 'failed' ? 'refused' : null;
      const profile = await db.user_profiles.get(db.userId);
      return profile?.username === username ? 'saved' : 'refused';
    }),
  );
  return new Promise((resolve, reject) => {
    const subscription = state.subscribe({
      next(outcome) {
        if (!outcome) return;
        resolve(outcome);
        queueMicrotask(() => subscription.unsubscribe());
      },
      error(error: unknown) {
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
  });
}
