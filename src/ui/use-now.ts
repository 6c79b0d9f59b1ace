import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `intervalMs` (the calendar's classification clock, docs/product.md, Calendar
 * and 4: 15 seconds). Also refreshed when the tab becomes visible again, so a phone woken after an
 * hour does not show the hour-old 'today' until the next tick. With `running` false the clock stops (no
 * re-render); started again, it reads the time at once when a tick was missed.
 */
export function useNow(intervalMs: number, running = true): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!running) return;
    const tick = () => setNow(new Date());
    // Started after a stop: the time is read at once if a tick was missed (else the same Date: no render).
    const catchUp = setTimeout(() =>
      setNow((shown) => (Date.now() - shown.getTime() >= intervalMs ? new Date() : shown)),
    );
    const timer = setInterval(tick, intervalMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(catchUp);
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [intervalMs, running]);
  return now;
}
