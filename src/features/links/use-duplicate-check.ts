/**
 * The duplicate check of Add Link (docs/product.md, Duplicate links): where the URL typed is
 * already saved, looked up as the user types (through useDeferredValue, as the links screen's
 * search is) and again on saving, so a URL typed and saved at once is not saved without the
 * notice. The check on saving reads nothing when the answer for the URL in the field is already
 * known: a save costs no more than before.
 */
import { useCallback, useDeferredValue, useLayoutEffect, useRef, useState } from 'react';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { savedCopies, useSavedCopies, type SavedCopy } from '../../data/queries/saved-copies.ts';
import { useUserDb } from '../../data/user-db-context.ts';

/** Where one URL (the field's text) is saved. */
export interface DuplicateAnswer {
  url: string;
  copies: SavedCopy[];
}

export interface DuplicateCheck {
  /** Where the URL in the field is already saved, as shown ([] when nowhere or not known yet). */
  copies: SavedCopy[];
  /** What the dialog shows now: taken when the button is pressed, before the form is checked. */
  seen(): DuplicateAnswer | undefined;
  /**
   * Whether saving `url` (the field's text) may go on: yes when it is saved nowhere, or when the
   * notice said where as the button was pressed (`seen`: it read 'Save anyway'); else the notice
   * shows now and nothing is saved.
   */
  mayAdd(url: string, seen: DuplicateAnswer | undefined): Promise<boolean>;
}

/** `url`: the URL field's text; `enabled`: only a new link is checked. */
export function useDuplicateCheck(url: string, enabled: boolean): DuplicateCheck {
  const { db } = useUserDb();
  const user = useCurrentUser((state) => state.user);
  const who = { userId: user?.id ?? '', email: user?.email ?? '' };
  const active = enabled && user !== null;
  const typed = useDeferredValue(active ? url : '');
  const found = useSavedCopies(db, typed, who);
  const [checked, setChecked] = useState<DuplicateAnswer | null>(null);
  const answer = [found, checked].find((candidate) => candidate?.url === url) ?? found;
  const copies = active ? (answer?.copies ?? []) : [];
  // What the dialog shows, for the save (which runs outside this render).
  const shown = useRef<DuplicateAnswer | undefined>(undefined);
  const latest = useRef({ found, checked, who });
  useLayoutEffect(() => {
    shown.current = answer?.url === url ? answer : undefined;
    latest.current = { found, checked, who };
  });

  const seen = useCallback(() => shown.current, []);
  const mayAdd = useCallback(
    async (text: string, seenThen: DuplicateAnswer | undefined) => {
      if (!active || seenThen?.url === text) return true;
      const known = [latest.current.found, latest.current.checked].find((candidate) => candidate?.url === text);
      const copiesNow = known?.copies ?? (await savedCopies(db, text, latest.current.who));
      if (copiesNow.length === 0) return true;
      setChecked({ url: text, copies: copiesNow });
      return false;
    },
    [active, db],
  );
  return { copies, seen, mayAdd };
}
