import { useCallback, useState } from 'react';

/** The session storage key remembering that the upgrade banner was dismissed (docs/product.md, Dashboard: for the session). */
export const BANNER_DISMISSED_KEY = 'lb_upgrade_banner_dismissed';

function readDismissed(): boolean {
  try {
    return sessionStorage.getItem(BANNER_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/** Whether the upgrade banner was dismissed this session, and how to dismiss it. */
export function useBannerDismissal(): [dismissed: boolean, dismiss: () => void] {
  const [dismissed, setDismissed] = useState(readDismissed);
  const dismiss = useCallback(() => {
    try {
      sessionStorage.setItem(BANNER_DISMISSED_KEY, '1');
    } catch {
      // Storage may be unavailable (private mode): the banner stays hidden until the page reloads.
    }
    setDismissed(true);
  }, []);
  return [dismissed, dismiss];
}
