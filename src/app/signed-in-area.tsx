import { useCurrentUser } from '../backend/current-user-store.ts';
import { RequestSyncSlot } from '../features/billing/sync-slot.ts';
import { ImportBookmarksSlot } from '../features/links/import-slot.ts';
import { TeamPollsSlot, type TeamPollsProps } from '../features/links/team-polls-slot.ts';
import { TransferSlot } from '../features/profile/transfer-slot.ts';
import { LoadingScreen } from '../ui/loading-screen.tsx';
import { ReminderNotifications } from './reminders/reminder-notifications.tsx';
import { AppShell } from './shell/app-shell.tsx';
import { SyncProvider } from './sync/sync-provider.tsx';
import { useUserSession } from './sync/user-session.ts';
import { LazyTeamPolls } from './team-polls.tsx';
import { renderImportButton, renderTransferSection } from './transfer-slots.tsx';

const renderTeamPolls = (props: TeamPollsProps) => <LazyTeamPolls {...props} />;
/** 'Pull now' for screens that expect a server change (the plan after checkout). */
const requestSync = () =>
  void useUserSession
    .getState()
    .session?.engine.sync()
    .catch(() => undefined);

/** The workspace: shown once the user is known; the guard moves visitors away. */
export function SignedInArea() {
  const status = useCurrentUser((state) => state.status);
  const user = useCurrentUser((state) => state.user);
  if (status !== 'signed-in' || !user) return <LoadingScreen />;
  return (
    <SyncProvider key={user.id} user={user}>
      <ReminderNotifications />
      <TeamPollsSlot.Provider value={renderTeamPolls}>
        <RequestSyncSlot.Provider value={requestSync}>
          <TransferSlot.Provider value={renderTransferSection}>
            <ImportBookmarksSlot.Provider value={renderImportButton}>
              <AppShell user={user} />
            </ImportBookmarksSlot.Provider>
          </TransferSlot.Provider>
        </RequestSyncSlot.Provider>
      </TeamPollsSlot.Provider>
    </SyncProvider>
  );
}
