import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { upgradeBannerUsages } from '../../domain/dashboard.ts';
import { usePageTitle } from '../../ui/page-title.ts';
import { AdSlot } from '../../ui/ad-slot.tsx';
import { DashboardSkeleton } from './dashboard-skeleton.tsx';
import { QuickAccess } from './quick-access.tsx';
import { StatsGrid } from './stats-grid.tsx';
import { TodaysFocus } from './todays-focus.tsx';
import { UpgradeBanner } from './upgrade-banner.tsx';
import { useBannerDismissal } from './use-banner-dismissal.ts';
import { useDashboard } from './use-dashboard.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

// The menu (Radix DropdownMenu and its positioning) loads after the first paint; until then the
// same-looking button stands in, so the dashboard's first download stays within its budget.
const QuickAddMenu = lazy(async () => ({ default: (await import('./quick-add-menu.tsx')).QuickAddMenu }));
const quickAddButton =
  'bg-brand-600 hover:bg-brand-700 inline-flex items-center gap-2 rounded-lg px-4 py-2 text-sm font-medium text-white';

function QuickAddPlaceholder() {
  return (
    <button type="button" className={quickAddButton} aria-haspopup="menu" aria-disabled="true">
      <span aria-hidden="true">+</span> Quick Add
    </button>
  );
}

/** First word of the full name, or 'there' (spec 2.5). */
export function greetingName(fullName: string | null | undefined): string {
  return fullName?.trim().split(/\s+/)[0] || 'there';
}

const META = {
  title: 'Dashboard — Linkboard',
  description: 'Your saved links, calendar events, tasks and polls at a glance, with what needs your focus today.',
};

/**
 * The Dashboard (spec 2.5, 4): greeting, Quick Add, stats, the Free plan's ad slot and upgrade
 * banner, Today's Focus and Quick Access; read from the local database, so offline it shows the same.
 */
export function DashboardPage() {
  usePageTitle('Dashboard');
  usePageMeta(META);
  const { fullName, username, tier, timeZone, now, loaded } = useDashboard();
  const [dismissed, dismiss] = useBannerDismissal();
  const nearLimits = loaded ? upgradeBannerUsages(tier, loaded.usages, dismissed) : [];

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600">
        <Link to="/">Home</Link> / <span aria-current="page">Dashboard</span>
      </nav>
      {loaded === undefined ? (
        <DashboardSkeleton />
      ) : (
        <div className="space-y-6">
          <header className="flex flex-wrap items-center justify-between gap-4">
            <h1 className="text-2xl font-bold text-slate-900">Welcome back, {greetingName(fullName)}!</h1>
            <Suspense fallback={<QuickAddPlaceholder />}>
              <QuickAddMenu username={username} />
            </Suspense>
          </header>
          <StatsGrid stats={loaded.stats} />
          {tier === 'free' && <AdSlot shape="banner" />}
          {nearLimits.length > 0 && <UpgradeBanner usages={nearLimits} username={username} onDismiss={dismiss} />}
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="lg:col-span-2">
              <TodaysFocus focus={loaded.focus} now={now} timeZone={timeZone} />
            </div>
            <QuickAccess username={username} />
          </div>
        </div>
      )}
    </>
  );
}
