/**
 * Background rounds of the local stack (the reminder scheduler, the mail drainer, ANALYZE on
 * PGlite): `round` runs `firstMs` after start and then again after the wait it answers, one at a
 * time, until stop(), which waits for the round in flight. A round handles its own errors.
 */
export interface Rounds {
  /** Stops the rounds and waits for the one in flight. */
  stop(): Promise<void>;
}

export function startRounds(firstMs: number, round: () => Promise<number>): Rounds {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const run = async () => {
    const wait = await round();
    if (!stopped) schedule(wait);
  };
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      inFlight = run();
    }, ms);
    timer.unref?.();
  };
  schedule(firstMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
