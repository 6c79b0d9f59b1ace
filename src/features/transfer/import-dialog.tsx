/**
 * Import bookmarks: choose a browser bookmark file or this app's JSON export, see what
 * it holds and what fits before anything is written, then import it with a progress bar and read
 * the summary. Everything runs on the device through the mutators, so it works offline; the
 * outbox syncs later. A file that is not a bookmarks file is refused and nothing is written.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useState, type ChangeEvent } from 'react';
import type { LinkboardDb } from '../../data/db.ts';
import { askForPreviews } from '../../data/preview-asks.ts';
import type { MutationContext } from '../../data/mutation-context.ts';
import { formatNumber } from '../../domain/number-format.ts';
import { Button } from '../../ui/button.tsx';
import { buildImportPlan, type ImportPlan } from './import-plan.ts';
import { readImportState } from './import-state.ts';
import { IMPORT_FAILED, ImportPreview, ImportResult } from './import-texts.tsx';
import { ImportUpsell } from './import-upsell.tsx';
import { ACCEPTED_FILES, readImportFile } from './read-import-file.ts';
import { importSteps, runImport, type ImportSummary } from './run-import.ts';

export interface ImportDialogProps {
  db: LinkboardDb;
  ctx: MutationContext;
  onClose(): void;
}

type Stage =
  | { step: 'choose'; error: string | null; reading: boolean }
  | { step: 'ready'; plan: ImportPlan }
  | { step: 'running'; done: number; total: number }
  | { step: 'done'; summary: ImportSummary; total: number }
  | { step: 'failed'; message: string };

/** Whether the plan writes anything: with nothing to write, Import has nothing to do. */
const hasWork = (plan: ImportPlan) => plan.links.length + plan.events.length > 0;

export function ImportDialog({ db, ctx, onClose }: ImportDialogProps) {
  const [stage, setStage] = useState<Stage>({ step: 'choose', error: null, reading: false });
  // Off by default: previews of a whole import are read at 100 an hour (docs/product.md, Link previews).
  const [previews, setPreviews] = useState(false);
  const running = stage.step === 'running';

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setStage({ step: 'choose', error: null, reading: true });
    const read = await readImportFile(file, new DOMParser());
    if (!read.ok) {
      setStage({ step: 'choose', error: read.error, reading: false });
      return;
    }
    try {
      const plan = buildImportPlan(read.source, await readImportState(db, ctx), { now: ctx.now() });
      setStage({ step: 'ready', plan });
    } catch (error) {
      console.error('Import preview failed', error);
      setStage({ step: 'failed', message: IMPORT_FAILED });
    }
  }

  async function start(plan: ImportPlan) {
    const total = importSteps(plan).length;
    setStage({ step: 'running', done: 0, total });
    try {
      const summary = await runImport(db, plan, ctx, {
        onProgress: (done, total) => setStage({ step: 'running', done, total }),
      });
      setStage({ step: 'done', summary, total });
      if (previews && plan.links.length > 0) {
        await askForPreviews(
          db,
          plan.links.map((link) => link.id),
        ).catch(() => undefined);
      }
    } catch (error) {
      console.error('Import failed', error);
      setStage({ step: 'failed', message: IMPORT_FAILED });
    }
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !running && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-dialog bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-dialog max-h-[90vh] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-surface p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">Import bookmarks</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            A bookmarks file exported from your browser (.html), or a Linkboard export (.json).
          </Dialog.Description>

          {stage.step === 'choose' && (
            <div className="mt-4 space-y-3">
              <label className="block text-sm font-medium text-slate-800">
                Bookmarks file
                <input
                  type="file"
                  accept={ACCEPTED_FILES}
                  disabled={stage.reading}
                  onChange={(e) => void choose(e)}
                  className="mt-1 block w-full text-sm"
                />
              </label>
              {stage.reading && <p className="text-sm text-slate-600">Reading the file...</p>}
              {stage.error && (
                <p role="alert" className="text-sm text-red-700 dark:text-red-300">
                  {stage.error}
                </p>
              )}
            </div>
          )}

          {stage.step === 'ready' && <ImportPreview plan={stage.plan} />}
          {stage.step === 'ready' && stage.plan.links.length > 0 && (
            <label className="mt-3 flex items-start gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="mt-0.5"
                checked={previews}
                onChange={(e) => setPreviews(e.target.checked)}
              />
              <span>
                Fetch previews
                <span className="block text-xs text-slate-600">
                  Titles, icons and images from each page, 100 links an hour.
                </span>
              </span>
            </label>
          )}
          {stage.step === 'ready' && stage.plan.upsell !== null && (
            <ImportUpsell message={stage.plan.upsell} onNavigate={onClose} />
          )}

          {stage.step === 'running' && (
            <div className="mt-4 space-y-2">
              <p className="text-sm text-slate-800">
                Importing... {formatNumber(stage.done)} of {formatNumber(stage.total)}
              </p>
              <progress
                className="w-full"
                value={stage.done}
                max={Math.max(stage.total, 1)}
                aria-label="Import progress"
              />
            </div>
          )}

          {stage.step === 'done' && (
            <>
              <progress
                className="mt-4 w-full"
                value={stage.total}
                max={Math.max(stage.total, 1)}
                aria-label="Import progress"
              />
              <ImportResult summary={stage.summary} />
            </>
          )}

          {stage.step === 'failed' && (
            <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-300">
              {stage.message}
            </p>
          )}

          <div className="mt-6 flex justify-end gap-3">
            {stage.step !== 'done' && (
              <Button variant="secondary" disabled={running} onClick={onClose}>
                Cancel
              </Button>
            )}
            {stage.step === 'ready' && (stage.plan.upsell === null || hasWork(stage.plan)) && (
              <Button disabled={!hasWork(stage.plan)} onClick={() => void start(stage.plan)}>
                Import
              </Button>
            )}
            {stage.step === 'done' && <Button onClick={onClose}>Close</Button>}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
