import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches, kept current. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below 768 px the shell shows the mobile header (spec 2.3). */
export const MOBILE_QUERY = '(max-width: 767px)';
