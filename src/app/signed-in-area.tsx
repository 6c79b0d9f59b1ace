import { useCurrentUser } from '../backend/current-user-store.ts';
import { LoadingScreen } from '../ui/loading-screen.tsx';
import { ReminderNotifications } from './reminders/reminder-notifications.tsx';
import { AppShell } from './shell/app-shell.tsx';
import { ProfileTheme } from './profile-theme.tsx';
import { SlotFillers } from './slots.tsx';
import { SyncProvider } from './sync/sync-provider.tsx';

/** The workspace: shown once the user is known; the guard moves visitors away. */
export function SignedInArea() {
  const status = useCurrentUser((state) => state.status);
  const user = useCurrentUser((state) => state.user);
  if (status !== 'signed-in' || !user) return <LoadingScreen />;
  return (
    <SyncProvider key={user.id} user={user}>
      <ReminderNotifications />
      <ProfileTheme userId={user.id} />
      <SlotFillers>
        <AppShell user={user} />
      </SlotFillers>
    </SyncProvider>
  );
}
