import { useEffect, useState } from 'react';
import { appNow, appNowMs, onClockChange } from './server-clock.ts';

/**
 * The current time by the server's clock as the device knows it (server-clock.ts), refreshed every
 * `intervalMs` (the calendar's classification clock: 15 seconds), when the tab becomes visible again
 * (a phone woken after an hour does not show the hour-old 'today' until the next tick), and when the
 * server's answer corrects the device's clock. With `running` false the clock stops (no re-render);
 * started again, it reads the time at once when a tick was missed.
 */
export function useNow(intervalMs: number, running = true): Date {
  const [now, setNow] = useState(appNow);
  useEffect(() => {
    if (!running) return;
    const tick = () => setNow(appNow());
    // Started after a stop: the time is read at once if a tick was missed (else the same Date: no render).
    const catchUp = setTimeout(() =>
      setNow((shown) => (appNowMs() - shown.getTime() >= intervalMs ? appNow() : shown)),
    );
    const timer = setInterval(tick, intervalMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    // The server's answer corrected the device's clock: what is on screen reads the time again.
    const offClock = onClockChange(tick);
    return () => {
      offClock();
      clearTimeout(catchUp);
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [intervalMs, running]);
  return now;
}
