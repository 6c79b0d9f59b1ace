import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `intervalMs` (the calendar's classification clock, docs/product.md, Calendar
 * and 4: 15 seconds). Also refreshed when the tab becomes visible again, so a phone woken after an
 * hour does not show the hour-old 'today' until the next tick.
 */
export function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const tick = () => setNow(new Date());
    const timer = setInterval(tick, intervalMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [intervalMs]);
  return now;
}
