import { useState } from 'react';
import { useFailedMutations } from '../../data/queries/outbox.ts';
import type { OutboxRow } from '../../data/rows.ts';
import { useUserSession } from './user-session.ts';

/** 'link.create' → 'Link create' (an entry too damaged to have a name is 'Unknown change'). */
function describe(row: OutboxRow): string {
  if (typeof row.name !== 'string') return 'Unknown change';
  const words = row.name.replace(/[._]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Mutations that kept failing for a reason other than the network, so the queue is never
 * wedged silently (docs/sync-protocol.md): each can be retried or discarded.
 */
export function FailedMutationsPanel() {
  const session = useUserSession((state) => state.session);
  if (!session) return null;
  // A live region that is there before any failure, so the reason is announced when it comes.
  return (
    <div aria-live="assertive" aria-relevant="additions text">
      <FailedList key={session.userId} />
    </div>
  );
}

function FailedList() {
  const session = useUserSession((state) => state.session)!;
  const failed = useFailedMutations(session.db);
  const [busy, setBusy] = useState<string | null>(null);
  if (!failed || failed.length === 0) return null;

  const act = async (id: string, action: 'retry' | 'discard') => {
    setBusy(id);
    try {
      await session.engine[action](id);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section
      aria-label="Changes that could not be saved"
      className="mx-1 rounded-lg border border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 p-2 text-xs"
    >
      <h3 className="font-semibold text-red-800 dark:text-red-200">Not saved</h3>
      <ul className="mt-1 flex flex-col gap-2">
        {failed.map((row) => (
          <li key={row.id} className="flex flex-col gap-1">
            <span className="font-medium text-slate-900">{describe(row)}</span>
            {row.last_error && <span className="break-words text-red-800 dark:text-red-200">{row.last_error}</span>}
            <span className="flex gap-2">
              <button
                type="button"
                disabled={busy === row.id}
                onClick={() => void act(row.id, 'retry')}
                className="rounded border border-slate-300 bg-surface px-2 py-0.5 font-medium hover:bg-slate-50"
              >
                Retry
              </button>
              <button
                type="button"
                disabled={busy === row.id}
                onClick={() => void act(row.id, 'discard')}
                className="rounded border border-red-300 dark:border-red-700 bg-surface px-2 py-0.5 font-medium text-red-700 dark:text-red-300 hover:bg-red-50 dark:hover:bg-red-950/40"
              >
                Discard
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
