/**
 * Sends the device's preview asks (src/data/preview-asks.ts) once their links are on the server:
 * after a sync that pushed and pulled, every ask whose link has no change still waiting in the
 * outbox is sent (docs/architecture.md, Link previews). An answered ask, and one for a link that
 * is gone, is dropped; one that could not be sent (offline, a server error) waits for the next
 * sync; a 429 holds all asks until its Retry-After. The fields the server fills arrive by the pull
 * that follows (the server pokes the link's devices; this asks for one sync too).
 */
import type { LinkboardDb } from '../data/db.ts';
import { dropPreviewAsks, previewAsks } from '../data/preview-asks.ts';
import type { PreviewAnswer } from '../backend/link-preview.ts';

export interface LinkPreviewOptions {
  db: LinkboardDb;
  ask(id: string, retry: boolean): Promise<PreviewAnswer>;
  /** Pulls what the answered asks filled in. */
  sync(): void;
  now?: () => number;
}

/** At most this many asks go out at once. */
const AT_ONCE = 4;

export function linkPreviewDrainer({ db, ask, sync, now = Date.now }: LinkPreviewOptions): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  let holdUntil = 0;

  async function pendingLinkIds(): Promise<Set<string>> {
    const waiting = await db.outbox.where('status').equals('pending').toArray();
    const ids = new Set<string>();
    for (const entry of waiting) {
      const id = entry.args.id;
      if (entry.name.startsWith('link.') && typeof id === 'string') ids.add(id);
    }
    return ids;
  }

  async function drainOnce(): Promise<void> {
    if (now() < holdUntil) return;
    const asks = await previewAsks(db);
    if (asks.length === 0) return;
    const unsent = await pendingLinkIds();
    const ready = asks.filter((entry) => !unsent.has(entry.id));
    const done = new Set<string>();
    let answered = false;
    for (let i = 0; i < ready.length && now() >= holdUntil; i += AT_ONCE) {
      const batch = ready.slice(i, i + AT_ONCE);
      const answers = await Promise.all(batch.map((entry) => ask(entry.id, entry.retry)));
      answers.forEach((answer, k) => {
        const id = batch[k]!.id;
        if (answer.kind === 'answered') {
          done.add(id);
          answered = true;
        } else if (answer.kind === 'gone') done.add(id);
        else if (answer.waitMs !== undefined) holdUntil = now() + answer.waitMs;
      });
      if (answers.some((answer) => answer.kind === 'later')) break;
    }
    await dropPreviewAsks(db, done);
    if (answered) sync();
  }

  return function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await drainOnce();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}
