/**
 * A UserDb as the sync provider gives it (src/app/sync/sync-provider.tsx), on a real local
 * database and the real mutators: a refusal is given to the caller's onRefused, else toasted,
 * with the mutator's message, and answers null; any other error is thrown. No sync engine runs, so changes stay queued.
 */
import type { LinkboardDb } from '../../../src/data/db.ts';
import { mutate } from '../../../src/data/mutate.ts';
import { MutationError } from '../../../src/data/mutation-error.ts';
import type { UserDb } from '../../../src/data/user-db-context.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { toast, useToasts } from '../../../src/ui/toast-store.ts';

export function userDbValue(db: LinkboardDb, user: { id: string; email: string; tier: Tier }): UserDb {
  const ctx = { userId: user.id, email: user.email, tier: user.tier, timeZone: 'UTC', now: () => new Date() };
  return {
    db,
    async mutate(name, args, onRefused) {
      try {
        return await mutate(db, name, args, ctx);
      } catch (error) {
        if (error instanceof MutationError) {
          if (onRefused) onRefused(error.message);
          else toast(error.message, 'error');
          return null;
        }
        throw error;
      }
    },
  };
}

/** The text of the latest toast. */
export const lastToast = () => useToasts.getState().toasts.at(-1)?.message;
