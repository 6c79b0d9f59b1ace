import { useCallback, useEffect, useState } from 'react';

/** The sidebar's open state, kept in a cookie for 7 days (spec 2.3 and 9). */
export const SIDEBAR_COOKIE = 'sidebar_state';
const SEVEN_DAYS = 60 * 60 * 24 * 7;

export function readSidebarCookie(cookie: string = document.cookie): boolean {
  const match = cookie.split('; ').find((part) => part.startsWith(`${SIDEBAR_COOKIE}=`));
  return match ? match.slice(SIDEBAR_COOKIE.length + 1) !== 'false' : true;
}

export function writeSidebarCookie(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SEVEN_DAYS}; SameSite=Lax`;
}

/** Open state plus toggle; Ctrl or Cmd plus B toggles it. */
export function useSidebarState() {
  const [open, setOpenState] = useState(() => readSidebarCookie());
  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    writeSidebarCookie(value);
  }, []);
  const toggle = useCallback(() => {
    setOpenState((value) => {
      writeSidebarCookie(!value);
      return !value;
    });
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'b' && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);
  return { open, setOpen, toggle };
}
