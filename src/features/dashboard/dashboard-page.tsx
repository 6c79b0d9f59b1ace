import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { upgradeBannerUsages } from '../../domain/dashboard.ts';
import { usePageTitle } from '../../ui/page-title.ts';
import { useScreenShown } from '../../ui/screen-shown.ts';
import { PAGES } from '../../domain/pages.ts';
import { DashboardSkeleton } from './dashboard-skeleton.tsx';
import { QuickAccess } from './quick-access.tsx';
import { StatsGrid } from './stats-grid.tsx';
import { TodaysFocus } from './todays-focus.tsx';
import { UpgradeBanner } from './upgrade-banner.tsx';
import { useBannerDismissal } from './use-banner-dismissal.ts';
import { useDashboard } from './use-dashboard.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

// The Free plan's ad slot loads only for a Free user; its box is held meanwhile (no layout shift).
const AdSlot = lazy(async () => ({ default: (await import('../../ui/ad-slot.tsx')).AdSlot }));
const adBanner = (
  <div aria-hidden="true" className="h-24 rounded-2xl border border-dashed border-slate-300 bg-slate-50" />
);

type QuickAddMenuType = ComponentType<{ username: string | null; defaultOpen?: boolean; autoFocus?: boolean }>;
let loadedMenu: QuickAddMenuType | null = null;
const loadMenu = () =>
  import('./quick-add-menu.tsx').then(({ QuickAddMenu }) => (loadedMenu = QuickAddMenu as QuickAddMenuType));

const quickAddButton =
  'bg-brand-600 hover:bg-brand-700 inline-flex items-center gap-2 rounded-lg px-4 py-2 text-sm font-medium text-white';

/**
 * Quick Add. The menu (Radix DropdownMenu and its positioning) loads when the user reaches for the
 * button (pointer over it, focus, touch or click), not with the dashboard: until then the
 * same-looking button stands in, and a click on it opens the menu as soon as it has loaded.
 */
function QuickAdd({ username }: { username: string | null }) {
  const [menu, setMenu] = useState<{ Menu: QuickAddMenuType; focus: boolean } | null>(() =>
    loadedMenu ? { Menu: loadedMenu, focus: false } : null,
  );
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const placeholder = useRef<HTMLButtonElement>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  if (menu) return <menu.Menu username={username} defaultOpen={openOnLoad} autoFocus={menu.focus} />;
  const want = () =>
    void loadMenu()
      .then((Menu) => {
        if (mounted.current) setMenu({ Menu, focus: document.activeElement === placeholder.current });
      })
      .catch(() => undefined);
  return (
    <button
      ref={placeholder}
      type="button"
      className={quickAddButton}
      aria-haspopup="menu"
      aria-expanded="false"
      onPointerEnter={want}
      onFocus={want}
      onTouchStart={want}
      onPointerDown={() => {
        setOpenOnLoad(true);
        want();
      }}
      onClick={() => {
        setOpenOnLoad(true);
        want();
      }}
    >
      <span aria-hidden="true">+</span> Quick Add
    </button>
  );
}

/** First word of the full name, or 'there' (docs/product.md, Dashboard). */
export function greetingName(fullName: string | null | undefined): string {
  return fullName?.trim().split(/\s+/)[0] || 'there';
}

const META = {
  title: 'Dashboard — Linkboard',
  description: 'Your saved links, calendar events, tasks and polls at a glance, with what needs your focus today.',
};

/**
 * The Dashboard (docs/product.md, Dashboard; Calendar): greeting, Quick Add, stats, the Free plan's ad slot and upgrade
 * banner, Today's Focus and Quick Access; read from the local database, so offline it shows the same.
 */
export function DashboardPage() {
  usePageTitle(PAGES.dashboard.title);
  usePageMeta(META);
  const { fullName, username, tier, timeZone, now, loaded } = useDashboard();
  useScreenShown(loaded !== undefined);
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
            <QuickAdd username={username} />
          </header>
          <StatsGrid stats={loaded.stats} />
          {tier === 'free' && (
            <Suspense fallback={adBanner}>
              <AdSlot shape="banner" />
            </Suspense>
          )}
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
