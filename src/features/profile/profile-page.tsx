import { useContext } from 'react';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { useProfile } from '../../data/queries/profile.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { tierOf } from '../../domain/plans.ts';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { PERSISTENT_STORAGE_NOTE } from '../../data/persistent-storage.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';
import { toast } from '../../ui/toast-store.ts';
import { storedThemeChoice } from '../../ui/theme/theme.ts';
import { chooseTheme } from '../../ui/theme/theme-choice.ts';
import { BookmarkletSection } from './bookmarklet-section.tsx';
import { CalendarFeedSection } from './calendar-feed-section.tsx';
import { EmailForm } from './email-form.tsx';
import { PushRemindersSection } from './push-reminders-section.tsx';
import { ThemeForm } from './theme-form.tsx';
import { TimeZoneForm } from './time-zone-form.tsx';
import { ProfileForm, type ProfileFormValues, type SaveResult } from './profile-form.tsx';
import { ReminderDefaultForm } from './reminder-default-form.tsx';
import { renameOutcome } from './rename-outcome.ts';
import { TransferSlot } from './transfer-slot.ts';
import { SubscriptionCard } from './subscription-card.tsx';
import { checkUsername } from './username-check.ts';

/** docs/product.md, Error messages: a username change the server refuses. */
export const PROFILE_SAVE_FAILED = 'Failed to save profile. Your username might be taken.';

const card = 'max-w-xl rounded-2xl bg-surface p-6 shadow-sm ring-1 ring-slate-200';

export function ProfilePage() {
  usePageTitle(PAGES.profile.title);
  const { db, mutate } = useUserDb();
  const profile = useProfile(db);
  const user = useCurrentUser((state) => state.user);
  const origin = typeof location === 'undefined' ? '' : location.origin;
  const renderTransfer = useContext(TransferSlot);

  const saved: ProfileFormValues = {
    username: profile?.username ?? user?.username ?? '',
    bio: profile?.bio ?? user?.bio ?? '',
  };
  const tier = tierOf(profile?.subscription_tier ?? user?.subscription_tier);

  const save = async (values: ProfileFormValues): Promise<SaveResult> => {
    const renaming = values.username !== saved.username;
    // Online, a taken username is refused before anything is queued (no rename and restore).
    if (renaming && (await checkUsername(values.username)) === 'taken') {
      return { ok: false, error: PROFILE_SAVE_FAILED };
    }
    const queued = await mutate('profile.update', { username: values.username, bio: values.bio });
    if (!queued) return { ok: false };
    // A rename is only 'saved' once the server kept it; a refusal shows its error alone.
    const outcome = renaming ? renameOutcome(db, queued.id, values.username) : Promise.resolve('saved');
    void outcome.then((result) => result === 'saved' && toast('Profile saved.', 'success')).catch(() => undefined);
    return { ok: true };
  };

  return (
    <>
      <ScreenHeader title="Profile" />
      <section aria-labelledby="public-profile" className={card}>
        <h2 id="public-profile" className="text-lg font-semibold">
          Public Profile
        </h2>
        {profile === undefined && !user ? null : <ProfileForm saved={saved} origin={origin} onSave={save} />}
      </section>
      <section aria-labelledby="time-zone" className={`mt-6 ${card}`}>
        <h2 id="time-zone" className="text-lg font-semibold">
          Time zone
        </h2>
        <TimeZoneForm
          saved={profile?.time_zone ?? user?.time_zone ?? 'UTC'}
          onSave={async (zone) => {
            const queued = await mutate('profile.update', { time_zone: zone });
            if (queued) toast('Time zone saved.', 'success');
            return queued !== null;
          }}
        />
      </section>
      <section aria-labelledby="appearance" className={`mt-6 ${card}`}>
        <h2 id="appearance" className="text-lg font-semibold">
          Appearance
        </h2>
        <ThemeForm
          saved={profile?.theme ?? storedThemeChoice()}
          onChange={(choice) => {
            if (user) void chooseTheme(user.id, choice, (value) => mutate('profile.update', { theme: value }));
          }}
        />
      </section>
      <section aria-labelledby="reminders" className={`mt-6 ${card}`}>
        <h2 id="reminders" className="text-lg font-semibold">
          Reminders
        </h2>
        <ReminderDefaultForm
          saved={profile?.default_reminder_minutes ?? null}
          onSave={async (minutes) => {
            const queued = await mutate('profile.update', { default_reminder_minutes: minutes });
            if (queued) toast('Default reminder saved.', 'success');
            return queued !== null;
          }}
        />
        <PushRemindersSection />
      </section>
      <section aria-labelledby="account-email" className={`mt-6 ${card}`}>
        <h2 id="account-email" className="text-lg font-semibold">
          Account
        </h2>
        <EmailForm fallback={profile?.email ?? user?.email ?? null} />
      </section>
      <section aria-labelledby="subscription" className={`mt-6 ${card}`}>
        <h2 id="subscription" className="text-lg font-semibold">
          Subscription
        </h2>
        <SubscriptionCard
          tier={tier}
          username={saved.username}
          email={profile?.email ?? user?.email ?? ''}
          billing={profile ?? null}
          timeZone={profile?.time_zone ?? user?.time_zone ?? 'UTC'}
        />
      </section>
      <section aria-labelledby="calendar-feed" className={`mt-6 ${card}`}>
        <h2 id="calendar-feed" className="text-lg font-semibold">
          Calendar feed
        </h2>
        <CalendarFeedSection
          userId={db.userId}
          tier={tier}
          timeZone={profile?.time_zone ?? user?.time_zone ?? 'UTC'}
          upgradePath={saved.username ? `/Upgrade/${saved.username}` : '/Upgrade'}
        />
      </section>
      <BookmarkletSection origin={origin} />
      {renderTransfer && (
        <section aria-labelledby="import-export" className={`mt-6 ${card}`}>
          <h2 id="import-export" className="text-lg font-semibold">
            Import and export
          </h2>
          {renderTransfer()}
        </section>
      )}
      {/* Why the browser was asked to keep the app's data (src/data/persistent-storage.ts). */}
      <p className="mt-6 max-w-xl text-sm text-slate-600">{PERSISTENT_STORAGE_NOTE}</p>
    </>
  );
}
