/**
 * The public poke topics the screens on show listen on (docs/sync-protocol.md, "Poke"): a screen
 * of content every signed-in user sees listens on its topic while it is shown, so a change another
 * user commits there is pulled at once rather than at the 30 s poll. The poke carries no data; the
 * pull goes through sync_pull under RLS as always. The device's own topic (`user:<id>`) is implied.
 */

/** The Public Voting Board: poked when a public poll is created, changed, deleted or voted on. */
export const VOTING_TOPIC = 'public:voting';

export interface LiveTopics {
  /** The topics listened on now, sorted. */
  current(): readonly string[];
  /** Calls back whenever they change; returns its removal. */
  subscribe(listener: () => void): () => void;
}

const counts = new Map<string, number>();
const listeners = new Set<() => void>();
let sorted: readonly string[] = [];

function changed(): void {
  sorted = [...counts.keys()].sort();
  for (const listener of [...listeners]) listener();
}

/** Listens on `topic` until the returned function is called (a screen's effect and its cleanup). */
export function listenOn(topic: string): () => void {
  const before = counts.get(topic) ?? 0;
  counts.set(topic, before + 1);
  if (before === 0) changed();
  let listening = true;
  return () => {
    if (!listening) return;
    listening = false;
    const left = (counts.get(topic) ?? 1) - 1;
    if (left > 0) {
      counts.set(topic, left);
      return;
    }
    counts.delete(topic);
    changed();
  };
}

export const liveTopics: LiveTopics = {
  current: () => sorted,
  subscribe(listener) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
