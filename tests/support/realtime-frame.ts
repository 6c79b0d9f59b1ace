/**
 * Reads a frame of the page's Realtime socket (vsn 1.0.0, as src/backend/realtime-client.ts
 * speaks): the topic a successful join answered (the server's `phx_reply` ok on
 * `realtime:<topic>`), for the e2e suite and the bench to wait until the server listens.
 */
export function joinedTopic(frame: string | Buffer): string | null {
  let message: { topic?: unknown; event?: unknown; payload?: { status?: unknown } };
  try {
    message = JSON.parse(String(frame)) as typeof message;
  } catch {
    return null;
  }
  if (message.event !== 'phx_reply' || message.payload?.status !== 'ok') return null;
  return typeof message.topic === 'string' && message.topic.startsWith('realtime:')
    ? message.topic.slice('realtime:'.length)
    : null;
}
