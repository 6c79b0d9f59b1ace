import { useCurrentUser } from '../../backend/current-user-store.ts';
import { planCard, tierOf } from '../../domain/plans.ts';
import { usePageTitle } from '../../ui/page-title.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';

export function ProfilePage() {
  const user = useCurrentUser((state) => state.user);
  usePageTitle('Profile');
  const origin = typeof location === 'undefined' ? '' : location.origin;
  return (
    <>
      <ScreenHeader title="Profile" />
      <section aria-labelledby="public-profile" className="max-w-xl rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="public-profile" className="text-lg font-semibold">Public Profile</h2>
        <dl className="mt-4 grid gap-3 text-sm">
          <div>
            <dt className="font-medium text-slate-700">Username</dt>
            <dd>{user?.username ?? '—'}</dd>
            {user?.username && <dd className="text-slate-600">{`${origin}/${user.username}`}</dd>}
          </div>
          <div>
            <dt className="font-medium text-slate-700">Bio</dt>
            <dd>{user?.bio || '—'}</dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="subscription" className="mt-6 max-w-xl rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="subscription" className="text-lg font-semibold">Subscription</h2>
        <p className="mt-2 text-sm">{planCard(tierOf(user?.subscription_tier)).title}</p>
      </section>
    </>
  );
}
