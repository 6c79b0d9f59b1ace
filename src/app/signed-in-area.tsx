import { useCurrentUser } from '../backend/current-user-store.ts';
import { TeamPollsSlot, type TeamPollsProps } from '../features/links/team-polls-slot.ts';
import { LoadingScreen } from '../ui/loading-screen.tsx';
import { AppShell } from './shell/app-shell.tsx';
import { SyncProvider } from './sync/sync-provider.tsx';
import { LazyTeamPolls } from './team-polls.tsx';

const renderTeamPolls = (props: TeamPollsProps) => <LazyTeamPolls {...props} />;

/** The workspace: shown once the user is known; the guard moves visitors away. */
export function SignedInArea() {
  const status = useCurrentUser((state) => state.status);
  const user = useCurrentUser((state) => state.user);
  if (status !== 'signed-in' || !user) return <LoadingScreen />;
  return (
    <SyncProvider key={user.id} user={user}>
      <TeamPollsSlot.Provider value={renderTeamPolls}>
        <AppShell user={user} />
      </TeamPollsSlot.Provider>
    </SyncProvider>
  );
}
