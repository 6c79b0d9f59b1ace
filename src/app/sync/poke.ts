/**
 * The server's poke for a session (src/sync/realtime-poke.ts on the page's Realtime socket,
 * src/backend/realtime-client.ts), with the session's access token from supabase-js: one chunk,
 * loaded after the first paint (user-session.ts), outside the dashboard's first download
 * (docs/bench.md).
 */
import { liveTopics } from '../../backend/live-topics.ts';
import { createRealtimeClient } from '../../backend/realtime-client.ts';
import type { LinkboardClient } from '../../backend/page-client.ts';
import { installRealtimePoke } from '../../sync/realtime-poke.ts';

/** Listens for pokes for `engine` until the returned function is called. */
export function startPoke(
  engine: { sync(): Promise<unknown> },
  userId: string,
  supabase: Pick<LinkboardClient, 'auth'>,
): () => void {
  const realtime = createRealtimeClient();
  const stop = installRealtimePoke(engine, {
    realtime,
    userId,
    topics: liveTopics,
    token: async () => (await supabase.auth.getSession()).data.session?.access_token ?? null,
    onToken: (listener) => {
      const { data } = supabase.auth.onAuthStateChange((event, session) => {
        if (event === 'TOKEN_REFRESHED' && session) listener(session.access_token);
      });
      return () => data.subscription.unsubscribe();
    },
  });
  return () => {
    stop();
    void realtime.disconnect();
  };
}
