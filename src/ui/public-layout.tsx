import type { ReactNode } from 'react';
import { Link, NavLink, Outlet } from 'react-router-dom';

const headerLinks = [
  { to: '/Features', label: 'Features' },
  { to: '/About', label: 'About' },
  { to: '/Contact', label: 'Contact' },
];

const footerLinks = [
  { to: '/Privacy', label: 'Privacy' },
  { to: '/GDPR', label: 'GDPR' },
  { to: '/About', label: 'About' },
  { to: '/Contact', label: 'Contact' },
];

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'text-brand-700 dark:text-brand-300' : 'text-slate-700 hover:text-slate-900'}`;

/** Where 'Create your free account' leads: the login page, opened on its sign-up form. */
export const SIGN_UP_PATH = '/Login?mode=sign-up';

export interface PublicLayoutProps {
  /** The page; without it the layout renders the matched child route. */
  children?: ReactNode;
  /**
   * A page of shared content (a public directory or profile): the header calls a visitor to
   * 'Sign in' or 'Create your free account'; a signed-in user gets a way back to their
   * workspace (`workspace`, their links path) instead.
   */
  visitor?: { workspace: string | null };
}

const primaryClass = 'rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700';

function VisitorCalls({ workspace }: { workspace: string | null }) {
  if (workspace) {
    return (
      <Link to={workspace} className={`${primaryClass} ml-1`}>
        My Links
      </Link>
    );
  }
  return (
    <>
      <Link to="/Login" className={navClass({ isActive: false })}>
        Sign in
      </Link>
      <Link to={SIGN_UP_PATH} className={`${primaryClass} ml-1`}>
        Create your free account
      </Link>
    </>
  );
}

/** The frame of the public pages: header with navigation, main content, footer. */
export function PublicLayout({ children, visitor }: PublicLayoutProps) {
  return (
    <div className="flex min-h-screen flex-col bg-surface text-slate-900">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-header focus:rounded-md focus:bg-surface focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3">
          <Link to="/" className="flex items-center gap-2 text-lg font-bold text-slate-900">
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-7 w-7 text-brand-600 dark:text-brand-400"
              fill="currentColor"
            >
              <rect x="3" y="3" width="8" height="8" rx="2" />
              <rect x="13" y="3" width="8" height="8" rx="2" opacity="0.6" />
              <rect x="3" y="13" width="8" height="8" rx="2" opacity="0.6" />
              <rect x="13" y="13" width="8" height="8" rx="2" />
            </svg>
            Linkboard
          </Link>
          <nav aria-label="Main" className="flex flex-wrap items-center gap-1">
            {visitor ? (
              <VisitorCalls workspace={visitor.workspace} />
            ) : (
              <>
                {headerLinks.map((link) => (
                  <NavLink key={link.to} to={link.to} className={navClass}>
                    {link.label}
                  </NavLink>
                ))}
                <Link to="/Login" className={`${primaryClass} ml-1`}>
                  Sign in
                </Link>
              </>
            )}
          </nav>
        </div>
      </header>
      {/* Shared content arrives after the first paint: its page holds the viewport's height from
          the start, so the footer begins below the fold and nothing in view moves when it lands. */}
      <main id="main" tabIndex={-1} className={`flex-1 focus:outline-none ${visitor ? 'min-h-screen' : ''}`}>
        {children ?? <Outlet />}
      </main>
      <footer className="border-t border-slate-200 bg-slate-50">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
          <nav aria-label="Footer" className="flex flex-wrap gap-x-4 gap-y-2">
            {footerLinks.map((link) => (
              <Link key={link.to} to={link.to} className="py-1 hover:text-slate-900 hover:underline">
                {link.label}
              </Link>
            ))}
          </nav>
          <p>© {new Date().getFullYear()} Linkboard</p>
        </div>
      </footer>
    </div>
  );
}
