import { NavLink } from 'react-router-dom';
import type { ComponentType, SVGProps } from 'react';
import type { CurrentUser } from '../../backend/profile.ts';
import { rememberedUsername } from '../../backend/remembered-username.ts';
import { PAGES, pageList, type IconName } from '../../domain/pages.ts';
import { displayHandle, displayName } from '../../domain/profile-display.ts';
import { CalendarIcon, ClockIcon, HomeIcon, LinkIcon, LogoutIcon, UserIcon, VoteIcon } from '../../ui/icons.tsx';
import { FailedMutationsPanel } from '../sync/failed-mutations-panel.tsx';
import { SyncStatusBadge } from '../sync/sync-status-badge.tsx';
import { PlanCard } from './plan-card.tsx';

interface SidebarProps {
  user: CurrentUser;
  collapsed: boolean;
  onNavigate?: () => void;
  onLogout: () => void;
  /** The sync status line (off in the mobile drawer: the header shows it). */
  showStatus?: boolean;
}

const icons: Record<IconName, ComponentType<SVGProps<SVGSVGElement>>> = {
  home: HomeIcon,
  link: LinkIcon,
  calendar: CalendarIcon,
  clock: ClockIcon,
  vote: VoteIcon,
  user: UserIcon,
};

/** The Workspace group: the pages of the table with a workspace entry, in its order. */
const workspace = pageList.flatMap(([, page]) =>
  page.sidebar?.group === 'workspace'
    ? [{ label: page.sidebar.label, path: page.paths[0], icon: icons[page.sidebar.icon] }]
    : [],
);
const ProfileIcon = icons[PAGES.profile.sidebar.icon];

/** A navigation item; collapsed, its icon alone, centred (the label stays its accessible name). */
const itemClassFor =
  (collapsed: boolean) =>
  ({ isActive }: { isActive: boolean }) =>
    `flex items-center gap-3 rounded-lg py-2 text-sm font-medium ${collapsed ? 'justify-center px-0' : 'px-3'} ${
      isActive
        ? 'bg-brand-50 dark:bg-brand-950/40 text-brand-700 dark:text-brand-300'
        : 'text-slate-700 hover:bg-slate-100'
    }`;

export function Sidebar({ user, collapsed, onNavigate, onLogout, showStatus = true }: SidebarProps) {
  const username = user.username ?? rememberedUsername();
  const suffix = username ? `/${username}` : '';
  const source = {
    fullName: user.full_name,
    username: user.username,
    email: user.email,
    rememberedUsername: rememberedUsername(),
  };
  const itemClass = itemClassFor(collapsed);
  return (
    <nav aria-label="Main" className={`flex h-full flex-col gap-6 ${collapsed ? 'p-2' : 'p-3'}`}>
      <a
        href="/"
        className={`text-brand-700 dark:text-brand-300 pt-2 text-lg font-bold ${collapsed ? 'text-center' : 'px-3'}`}
      >
        {collapsed ? 'L' : 'Linkboard'}
      </a>
      <div>
        {!collapsed && (
          <h2 className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">Workspace</h2>
        )}
        <ul className="flex flex-col gap-1">
          {workspace.map(({ label, path, icon: Icon }) => (
            <li key={path}>
              <NavLink
                to={`${path}${suffix}`}
                className={itemClass}
                onClick={onNavigate}
                title={collapsed ? label : undefined}
                aria-label={collapsed ? label : undefined}
              >
                <Icon />
                {!collapsed && <span>{label}</span>}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
      {!collapsed && (
        <div>
          <h2 className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">Account</h2>
          <PlanCard tier={user.subscription_tier} username={username} />
        </div>
      )}
      <div className="mt-auto flex flex-col gap-1 border-t border-slate-200 pt-3">
        {showStatus && !collapsed && <FailedMutationsPanel />}
        {showStatus && <SyncStatusBadge compact={collapsed} />}
        <NavLink
          to={`${PAGES.profile.paths[0]}${suffix}`}
          className={itemClass}
          onClick={onNavigate}
          title={collapsed ? PAGES.profile.sidebar.label : undefined}
          aria-label={collapsed ? 'Your Profile' : undefined}
        >
          <ProfileIcon />
          {!collapsed && (
            <span className="flex min-w-0 flex-col">
              <span className="truncate">{displayName(source)}</span>
              <span className="truncate text-xs font-normal text-slate-600">{displayHandle(source)}</span>
            </span>
          )}
        </NavLink>
        <button
          type="button"
          onClick={onLogout}
          className={itemClass({ isActive: false })}
          title={collapsed ? 'Logout' : undefined}
          aria-label={collapsed ? 'Logout' : undefined}
        >
          <LogoutIcon />
          {!collapsed && <span>Logout</span>}
        </button>
      </div>
    </nav>
  );
}
