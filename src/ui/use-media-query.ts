import { useSyncExternalStore } from 'react';

/**
 * One MediaQueryList per query: React reads the snapshot on every render of every user, and
 * window.matchMedia parses the query and makes a new list each time it is called.
 */
const lists = new Map<string, MediaQueryList>();
function listOf(query: string): MediaQueryList {
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

/** Whether a CSS media query matches, kept current. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = listOf(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => listOf(query).matches,
    () => false,
  );
}

/** Below 768 px the shell shows the mobile header (docs/product.md, Application shell). */
export const MOBILE_QUERY = '(max-width: 767px)';
