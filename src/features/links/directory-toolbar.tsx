import type { ComponentType, ReactNode, SVGProps } from 'react';
import type { Tier } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { SettingsIcon, UserPlusIcon, UsersIcon } from '../../ui/icons.tsx';
import { LimitNotice } from '../../ui/limit-notice.tsx';
import { messages } from '../../domain/sync-codes.ts';
import { linkCountLabel } from './link-filters.ts';
import { LinkLimitBadge } from './link-limit-notice.tsx';

export interface DirectoryToolbarProps {
  linkCount: number;
  /** The plan whose limit governs the directory (its owner's), and how many links it counts. */
  limit: { tier: Tier | null; count: number };
  /** Each action is shown only when given (allowed). */
  onMembers?(): void;
  onInvite?(): void;
  onSettings?(): void;
  onAddLink?(): void;
  /** The owner on Free at 30 links: Add Link shows disabled with the message of docs/product.md and the way to upgrade. */
  atLimit: boolean;
  /** The Upgrade page's path. */
  upgradeTo: string;
}

/** A secondary action: its icon alone on a phone (the label stays its accessible name), icon and label above. */
function ToolButton({
  icon: Icon,
  label,
  onClick,
}: {
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  label: string;
  onClick(): void;
}) {
  return (
    <Button variant="secondary" className="px-3 sm:px-4" title={label} onClick={onClick}>
      <Icon className="sm:hidden" />
      <span className="sr-only sm:not-sr-only">{label}</span>
    </Button>
  );
}

/**
 * The selected directory's header toolbar (docs/product.md, Links screen): link count, plan badge, Members, Invite,
 * Settings and Add Link. The buttons stay on one line down to a 375 px phone.
 */
export function DirectoryToolbar(props: DirectoryToolbarProps) {
  const { linkCount, limit, onMembers, onInvite, onSettings, onAddLink, atLimit, upgradeTo } = props;
  let addLink: ReactNode = null;
  if (onAddLink)
    addLink = (
      <Button aria-keyshortcuts="n" onClick={onAddLink}>
        Add Link
      </Button>
    );
  else if (atLimit) {
    addLink = (
      <Button disabled aria-describedby="link-limit-reached">
        Add Link
      </Button>
    );
  }
  return (
    <div className="flex w-full flex-wrap items-center gap-x-3 gap-y-2 sm:w-auto sm:justify-end">
      <span className="flex items-center gap-3">
        <span className="text-sm text-slate-600">{linkCountLabel(linkCount)}</span>
        <LinkLimitBadge tier={limit.tier} count={limit.count} />
      </span>
      <div className="flex shrink-0 flex-nowrap items-center gap-2" data-testid="directory-actions">
        {onMembers && <ToolButton icon={UsersIcon} label="Members" onClick={onMembers} />}
        {onInvite && <ToolButton icon={UserPlusIcon} label="Invite" onClick={onInvite} />}
        {onSettings && <ToolButton icon={SettingsIcon} label="Settings" onClick={onSettings} />}
        {addLink}
      </div>
      {atLimit && (
        <div className="w-full">
          <LimitNotice id="link-limit-reached" limit={{ message: messages.moreLinks, upgradeTo }} />
        </div>
      )}
    </div>
  );
}
