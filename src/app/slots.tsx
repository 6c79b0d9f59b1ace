/**
 * Every slot the app fills, in one place. Features never import each other nor the app, so a
 * screen that shows another feature's part (or needs the app's sync engine) declares a slot:
 * `src/features/<feature>/<name>-slot.ts` exports one React context `<Name>Slot` (the file's
 * name in PascalCase), null where no app fills it. Here the app fills `<Name>Slot` with
 * `fill<Name>`; tests/app/slots.test.tsx fails on a slot left unfilled or named otherwise.
 * The parts load with their first use, so a screen's download does not carry them.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useCurrentUser } from '../backend/current-user-store.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { useUserDb } from '../data/user-db-context.ts';
import { RequestSyncSlot } from '../features/billing/request-sync-slot.ts';
import { ImportBookmarksSlot } from '../features/links/import-bookmarks-slot.ts';
import { TeamPollsSlot, type TeamPollsProps } from '../features/links/team-polls-slot.ts';
import { TransferSlot } from '../features/profile/transfer-slot.ts';
import { mutationContextFor, useUserSession } from './sync/user-session.ts';

const TeamPolls = lazy(async () => ({ default: (await import('../features/polls/team-polls.tsx')).TeamPolls }));
const ImportExportSection = lazy(async () => ({
  default: (await import('../features/transfer/import-export-section.tsx')).ImportExportSection,
}));
const ImportBookmarksButton = lazy(async () => ({
  default: (await import('../features/transfer/import-bookmarks-button.tsx')).ImportBookmarksButton,
}));

/** The signed-in user's database and mutation context, or null before they are known. */
function WithUserDb({
  children,
}: {
  children: (db: ReturnType<typeof useUserDb>['db'], ctx: MutationContext) => ReactNode;
}) {
  const { db } = useUserDb();
  const user = useCurrentUser((state) => state.user);
  if (!user) return null;
  return <Suspense fallback={null}>{children(db, mutationContextFor(user))}</Suspense>;
}

/** The polls feature's Team Polls panel in a directory of the links screen. */
export const fillTeamPolls = (props: TeamPollsProps) => (
  <Suspense fallback={<p className="py-6 text-center text-sm text-slate-600">Loading polls...</p>}>
    <TeamPolls {...props} />
  </Suspense>
);

/** 'Pull now' for screens that expect a server change (the plan after checkout). */
export const fillRequestSync = () =>
  void useUserSession
    .getState()
    .session?.engine.sync()
    .catch(() => undefined);

/** The transfer feature's import and export, in the Profile screen's 'Import and export' section. */
export const fillTransfer = () => <WithUserDb>{(db, ctx) => <ImportExportSection db={db} ctx={ctx} />}</WithUserDb>;

/** The transfer feature's 'Import bookmarks' button, in the empty states of My Links. */
export const fillImportBookmarks = () => (
  <WithUserDb>{(db, ctx) => <ImportBookmarksButton db={db} ctx={ctx} variant="primary" />}</WithUserDb>
);

/** Fills every slot for the screens below. */
export function SlotFillers({ children }: { children: ReactNode }) {
  return (
    <TeamPollsSlot.Provider value={fillTeamPolls}>
      <RequestSyncSlot.Provider value={fillRequestSync}>
        <TransferSlot.Provider value={fillTransfer}>
          <ImportBookmarksSlot.Provider value={fillImportBookmarks}>{children}</ImportBookmarksSlot.Provider>
        </TransferSlot.Provider>
      </RequestSyncSlot.Provider>
    </TeamPollsSlot.Provider>
  );
}
