/**
 * The Links screens' dialogs (the link form and its checks, a directory's settings, members and
 * invitations), chunks of their own in no screen's first load: a warm start compiles only what its
 * first frame shows. `preloadLinkDialogs` fetches them; the screens call it at the first intent or
 * once idle (usePreloadWhenIdle), so a click finds them loaded, offline too.
 */
import { DialogLoadFailed, preloadable } from '../../ui/preloadable.ts';
import type { DirectoryDialogProps } from './directory-dialog.tsx';
import type { InviteDialogProps } from './invite-dialog.tsx';
import type { LinkDialogProps } from './link-dialog.tsx';
import type { MembersDialogProps } from './members-dialog.tsx';

export const LinkDialog = preloadable<LinkDialogProps, typeof import('./link-dialog.tsx')>(
  () => import('./link-dialog.tsx'),
  'LinkDialog',
  DialogLoadFailed,
);
export const DirectoryDialog = preloadable<DirectoryDialogProps, typeof import('./directory-dialog.tsx')>(
  () => import('./directory-dialog.tsx'),
  'DirectoryDialog',
  DialogLoadFailed,
);
export const InviteDialog = preloadable<InviteDialogProps, typeof import('./invite-dialog.tsx')>(
  () => import('./invite-dialog.tsx'),
  'InviteDialog',
  DialogLoadFailed,
);
export const MembersDialog = preloadable<MembersDialogProps, typeof import('./members-dialog.tsx')>(
  () => import('./members-dialog.tsx'),
  'MembersDialog',
  DialogLoadFailed,
);

export function preloadLinkDialogs(): void {
  void Promise.all([LinkDialog, DirectoryDialog, InviteDialog, MembersDialog].map((dialog) => dialog.preload())).catch(
    () => undefined,
  );
}
