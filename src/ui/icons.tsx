import type { SVGProps } from 'react';

function Icon({ d, className, ...props }: SVGProps<SVGSVGElement> & { d: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className ? `shrink-0 ${className}` : 'shrink-0'}
      {...props}
    >
      <path d={d} />
    </svg>
  );
}

type P = SVGProps<SVGSVGElement>;
export const HomeIcon = (p: P) => <Icon d="M3 10.5 12 3l9 7.5V21h-6v-6H9v6H3z" {...p} />;
export const LinkIcon = (p: P) => (
  <Icon
    d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1"
    {...p}
  />
);
export const CalendarIcon = (p: P) => <Icon d="M4 6h16v14H4zM4 10h16M8 3v4M16 3v4" {...p} />;
export const ClockIcon = (p: P) => <Icon d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2" {...p} />;
export const UserIcon = (p: P) => <Icon d="M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0" {...p} />;
export const LogoutIcon = (p: P) => <Icon d="M15 17l5-5-5-5M20 12H9M12 21H5V3h7" {...p} />;
export const MenuIcon = (p: P) => <Icon d="M4 6h16M4 12h16M4 18h16" {...p} />;
export const VoteIcon = (p: P) => <Icon d="M4 20h16M7 16V9M12 16V4M17 16v-5" {...p} />;
export const UsersIcon = (p: P) => (
  <Icon d="M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 3.5a4 4 0 0 1 0 7M18 14a6 6 0 0 1 4 7" {...p} />
);
export const UserPlusIcon = (p: P) => (
  <Icon d="M10 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM3 21a7 7 0 0 1 14 0M19 8v6M16 11h6" {...p} />
);
export const SettingsIcon = (p: P) => (
  <Icon
    d="M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z"
    {...p}
  />
);
