/**
 * Runs an import plan through the normal mutation path: mutateMany, so every row is
 * checked by its mutator, applied optimistically and queued in the outbox, offline or not (the
 * outbox syncs later). Directories first, then links, then calendar items, in batches of
 * IMPORT_BATCH steps, each batch one transaction; progress is reported after each batch and the
 * browser gets a turn between batches, so the page stays responsive. A step the mutator refuses
 * (a limit reached meanwhile) is skipped and counted under the refusal's own message.
 */
import type { LinkboardDb } from '../../data/db.ts';
import { mutateMany } from '../../data/mutate.ts';
import type { MutationStep } from '../../data/run-mutator.ts';
import type { MutationContext } from '../../data/mutation-context.ts';
import type { OutboxRow } from '../../data/rows.ts';
import { skipList, type ImportPlan } from './import-plan.ts';

export const IMPORT_BATCH = 250;

export interface ImportSummary {
  /** Links created. */
  imported: number;
  /** Events, tasks and series created (JSON export only). */
  events: number;
  /** Directories created. */
  directories: number;
  skipped: { reason: string; count: number }[];
  /** The plan's notes (where a Free plan's folders went, what was left out). */
  notes: string[];
}

export interface RunImportOptions {
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
  /** Gives the browser a turn between batches; a macrotask by default. */
  pause?: () => Promise<void>;
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The plan's steps in the order they run: directories, links, calendar. */
export function importSteps(plan: ImportPlan): MutationStep[] {
  return [
    ...plan.directories.map((args): MutationStep => ({ name: 'directory.create', args })),
    ...plan.links.map((args): MutationStep => ({ name: 'link.create', args })),
    ...plan.events,
  ];
}

export async function runImport(
  db: LinkboardDb,
  plan: ImportPlan,
  ctx: MutationContext,
  options: RunImportOptions = {},
): Promise<ImportSummary> {
  const { batchSize = IMPORT_BATCH, onProgress, pause = macrotask } = options;
  const steps = importSteps(plan);
  const summary: ImportSummary = { imported: 0, events: 0, directories: 0, skipped: [], notes: plan.notes };
  const refusals = new Map<string, number>();
  const refusedCreates = new Set<string>();
  let lastQueued: OutboxRow | undefined;

  try {
    for (let start = 0; start < steps.length; start += batchSize) {
      if (start > 0) await pause();
      const batch = steps.slice(start, start + batchSize);
      // The sync hears of the import once, at the end: its pushes would otherwise share IndexedDB
      // with the batches still to come (the import is what the user waits for).
      const { queued, refused } = await mutateMany(db, batch, ctx, { skipRefused: true, quiet: true });
      lastQueued = queued.at(-1) ?? lastQueued;
      const refusedAt = new Map(refused.map(({ index, error }) => [index, error.message]));
      batch.forEach((step, index) => {
        const message = refusedAt.get(index);
        if (message === undefined) {
          if (step.name === 'link.create') summary.imported += 1;
          else if (step.name === 'directory.create') summary.directories += 1;
          else if (step.name === 'event.create' || step.name === 'series.create') summary.events += 1;
          return;
        }
        if (step.name === 'event.create') refusedCreates.add(step.args.id);
        // A completed task whose creation was refused is one skip, not two.
        if (step.name === 'task.set_completed' && refusedCreates.has(step.args.id)) return;
        refusals.set(message, (refusals.get(message) ?? 0) + 1);
      });
      onProgress?.(Math.min(start + batchSize, steps.length), steps.length);
    }
  } finally {
    // What was queued syncs, even when a later batch failed.
    if (lastQueued) db.notifyMutation(lastQueued);
  }
  summary.skipped = [...skipList(plan.skipped), ...[...refusals].map(([reason, count]) => ({ reason, count }))];
  return summary;
}
