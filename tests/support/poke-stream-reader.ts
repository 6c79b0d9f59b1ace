/**
 * A poke stream (GET /sync/v1/poke, docs/sync-protocol.md "Poke") read in Node, which has no
 * EventSource: event by event for the stack's own tests, or as the PokeSource the app's
 * installPokeStream takes, so a SyncEngine in a test is poked as a browser's is.
 */
import type { PokeSource } from '../../src/sync/poke-stream.ts';

export interface SseEvent {
  event: string;
  data: string;
}

/** An open poke stream, read event by event. */
export class PokeStream {
  private buffer = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  raw = '';

  constructor(readonly response: Response) {
    this.reader = response.body!.getReader();
  }

  /** The next event within ms, or null. */
  async next(ms = 500): Promise<SseEvent | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const lines = block.split('\n').filter((line) => !line.startsWith(':'));
        if (lines.length === 0) continue;
        const field = (name: string) =>
          lines
            .filter((line) => line.startsWith(`${name}: `))
            .map((line) => line.slice(name.length + 2))
            .join('\n');
        return { event: field('event'), data: field('data') };
      }
      const left = deadline - Date.now();
      if (left <= 0) return null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      // A read that outlives a timeout stays pending for the next call, so no chunk is lost.
      this.pending ??= this.reader.read();
      const chunk = await Promise.race([
        this.pending,
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left))),
      ]);
      clearTimeout(timer);
      if (chunk === null) return null;
      this.pending = null;
      if (chunk.done) return null;
      const text = this.decoder.decode(chunk.value, { stream: true });
      this.raw += text;
      this.buffer += text;
    }
  }

  async close() {
    await this.reader.cancel().catch(() => undefined);
  }
}

/**
 * installPokeStream's `openSource` over `call` (an in-process stack's fetch): dispatches `ready`
 * and `poke` as they arrive, and `error` when the stream is refused or ends. `opened` keeps every
 * URL asked for, `heard` counts the streams that listened (`ready`) and the pokes.
 */
export function fetchPokeSource(call: typeof fetch) {
  const opened: string[] = [];
  const heard = { ready: 0, pokes: 0 };
  const open = (url: string): PokeSource => {
    opened.push(url);
    const target = new EventTarget();
    let closed = false;
    let stream: PokeStream | null = null;
    void (async () => {
      try {
        const response = await call(url);
        if (closed) {
          await response.body?.cancel();
          return;
        }
        if (response.status !== 200) throw new Error(`poke stream: ${response.status}`);
        stream = new PokeStream(response);
        while (!closed) {
          const event = await stream.next(60_000);
          if (closed) break;
          if (event === null) throw new Error('poke stream ended');
          if (event.event === 'ready') heard.ready += 1;
          if (event.event === 'poke') heard.pokes += 1;
          target.dispatchEvent(new Event(event.event));
        }
      } catch {
        if (!closed) target.dispatchEvent(new Event('error'));
      }
    })();
    return {
      addEventListener: (type, listener) => target.addEventListener(type, listener),
      close: () => {
        closed = true;
        void stream?.close();
      },
    };
  };
  return { open, opened, heard };
}
