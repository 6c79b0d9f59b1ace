/**
 * The Links screen's window read (readLinkWindow in queries/link-window.ts), live, with a new
 * window's first read started in the task that asks for it. A live query starts its first read in
 * a timer, after the frame being drawn: a scroll's read would wait for the frame of its own scroll.
 * Here a new window is read at once (in the commit of the scroll's synchronous render), its rows
 * rendered synchronously when they arrive, and the live query moves to the window after the frame
 * that paints them (its read is what later writes wake). Until the first answer, the last window
 * stays (docs/scale.md, the scroll).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useLayoutEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { afterNextPaint } from '../timing/after-next-paint.ts';
import type { LinkboardDb } from './db.ts';

/** A window of a directory's links: links `from` to `to`. */
interface Span {
  db: LinkboardDb;
  directoryId: string;
  from: number;
  to: number;
}

const sameSpan = (a: Span, b: Span) =>
  a.db === b.db && a.directoryId === b.directoryId && a.from === b.from && a.to === b.to;

/**
 * `read` of a directory's window (readLinkWindow: a module function, not a new one each render),
 * live; the last window's answer while a new one is read. `atHand` answers a window from memory
 * (the directory's links held: held-directory.ts), or undefined: a new window it answers is
 * rendered in the task asking for it, with no read, and the live query stays where it is.
 */
export function useWindowRead<T>(
  db: LinkboardDb,
  directoryId: string,
  from: number,
  to: number,
  read: (db: LinkboardDb, directoryId: string, from: number, to: number) => Promise<T>,
  atHand?: (from: number, to: number) => T | undefined,
): T | undefined {
  // The window the live query follows: the one asked for, once its first read has answered.
  const [live, setLive] = useState<Span>({ db, directoryId, from, to });
  const [early, setEarly] = useState<{ span: Span; read: T } | null>(null);
  const followed = useLiveQuery(
    async () => ({ span: live, read: await read(live.db, live.directoryId, live.from, live.to) }),
    [live, read],
  );
  const wanted: Span = { db, directoryId, from, to };
  const moving = !sameSpan(live, wanted);
  const ready = useMemo(() => atHand?.(from, to), [atHand, from, to]);
  const readyNow = ready !== undefined;
  useLayoutEffect(() => {
    // A window at hand needs no read, nor the live query's: while they hold, the held links answer
    // (they are let go at a write to the directory, and a window then read as below).
    if (!moving || readyNow) return;
    const span = { db, directoryId, from, to };
    let current = true;
    let cancelFollow: (() => void) | undefined;
    const settle = (answer: T | null) => {
      if (!current) return;
      // The rows in the frame after their answer (a synchronous render, not a scheduled one); the
      // live query's own first read of them after that frame, not in its way.
      if (answer !== null) flushSync(() => setEarly({ span, read: answer }));
      cancelFollow = afterNextPaint(() => setLive(span));
    };
    read(db, directoryId, from, to).then(settle, () => settle(null));
    return () => {
      current = false;
      cancelFollow?.();
    };
  }, [db, directoryId, from, to, moving, read, readyNow]);
  if (followed && sameSpan(followed.span, wanted)) return followed.read;
  if (early && sameSpan(early.span, wanted)) return early.read;
  return ready ?? followed?.read;
}
