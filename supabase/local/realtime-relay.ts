/**
 * From the database to the local stack's Realtime sockets: the bootstrap's trigger on
 * realtime.messages NOTIFYs `realtime_broadcast` with the topic and event of each broadcast
 * (realtime.send), delivered when its transaction commits, never for one rolled back; the relay
 * hands them to the hub (poke-hub.ts), which throttles and delivers them to the joined channels.
 * Hosted Realtime keeps messages a few days; here nothing reads them after the commit, so the
 * relay deletes those older than MESSAGE_RETENTION every minute.
 */
import type { Db } from './db.ts';
import type { PokeHub } from './poke-hub.ts';

export const RELAY_CHANNEL = 'realtime_broadcast';
export const MESSAGE_RETENTION = '10 minutes';
const SWEEP_MS = 60_000;

export interface RealtimeRelay {
  /** Deletes the messages older than MESSAGE_RETENTION (every minute on its own). */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRealtimeRelay(db: Db, hub: PokeHub): Promise<RealtimeRelay> {
  const unlisten = await db.listen(RELAY_CHANNEL, (payload) => {
    try {
      const { topic, event } = JSON.parse(payload) as { topic?: unknown; event?: unknown };
      if (typeof topic === 'string' && typeof event === 'string') hub.poke([topic], event);
    } catch {
      // Not a notification of the trigger's: nothing to deliver.
    }
  });
  const sweep = async () => {
    await db.query(`delete from realtime.messages where inserted_at < now() - interval '${MESSAGE_RETENTION}'`);
  };
  const timer = setInterval(() => void sweep().catch(() => undefined), SWEEP_MS);
  timer.unref();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await unlisten();
    },
  };
}
