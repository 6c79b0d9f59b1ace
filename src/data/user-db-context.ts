/**
 * What a screen needs to read and write the signed-in user's data: the local database and a
 * mutate bound to the current user (the app provides it; features only consume it).
 */
import { createContext, useContext } from 'react';
import type { MutationArgs, MutationName } from '../domain/mutation-contract.ts';
import type { LinkboardDb } from './db.ts';
import type { OutboxRow } from './rows.ts';

export interface UserDb {
  db: LinkboardDb;
  /**
   * Applies and queues a mutation for the current user. A refusal (MutationError) is shown to
   * the user and answers null: given to `onRefused` when the caller shows it where the user
   * acted (a dialog's alert), else as a toast. Other errors are thrown unchanged.
   */
  mutate<N extends MutationName>(
    name: N,
    args: MutationArgs[N],
    onRefused?: (message: string) => void,
  ): Promise<OutboxRow | null>;
}

export const UserDbContext = createContext<UserDb | null>(null);

export function useUserDb(): UserDb {
  const value = useContext(UserDbContext);
  if (!value) throw new Error('useUserDb must be used inside the signed-in area');
  return value;
}
