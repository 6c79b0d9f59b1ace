import { useCallback, useEffect, useState } from 'react';

/** The sidebar's open state, kept in a cookie for 7 days (docs/product.md, Application shell; Plans and limits). */
export const SIDEBAR_COOKIE = 'sidebar_state';
const SEVEN_DAYS = 60 * 60 * 24 * 7;

export function readSidebarCookie(cookie: string = document.cookie): boolean {
  const match = cookie.split('; ').find((part) => part.startsWith(`${SIDEBAR_COOKIE}=`));
  return match ? match.slice(SIDEBAR_COOKIE.length + 1) !== 'false' : true;
}

export function writeSidebarCookie(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SEVEN_DAYS}; SameSite=Lax`;
}

/**
 * Open state plus toggle; Ctrl or Cmd plus B toggles it. On a phone the sidebar is a drawer
 * with its own state that starts closed and is not remembered.
 */
export function useSidebarState(mobile = false) {
  const [desktopOpen, setOpenState] = useState(() => readSidebarCookie());
  const [mobileOpen, setMobileOpen] = useState(false);
  const setOpen = useCallback(
    (value: boolean) => {
      if (mobile) return setMobileOpen(value);
      setOpenState(value);
      writeSidebarCookie(value);
    },
    [mobile],
  );
  const toggle = useCallback(() => {
    if (mobile) return setMobileOpen((value) => !value);
    setOpenState((value) => {
      writeSidebarCookie(!value);
      return !value;
    });
  }, [mobile]);
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
  return { open: mobile ? mobileOpen : desktopOpen, setOpen, toggle };
}
