/** Whether and with whom a directory is shared, as its card says (docs/product.md, Links screen). */
import type { DirectoryRow, MemberRow } from '../../data/rows.ts';
import type { MemberRole } from '../../domain/validation.ts';

export type DirectorySharing =
  /** The user owns it and has invited these addresses. */
  | { kind: 'owner'; emails: string[] }
  /** Someone else's, shared with the user (their role, when their membership is known here). */
  | { kind: 'member'; role: MemberRole | null };

/** Up to this many addresses are named on the card; beyond, a count (the list in the description). */
export const EMAILS_NAMED = 2;

export function directorySharing(
  directory: DirectoryRow,
  members: readonly MemberRow[],
  user: { id: string; email: string | null },
): DirectorySharing | null {
  if (directory.owner_id !== user.id) {
    const email = (user.email ?? '').trim().toLowerCase();
    const mine = members.find((member) => member.user_email.toLowerCase() === email);
    return { kind: 'member', role: mine?.role ?? null };
  }
  if (members.length === 0) return null;
  return { kind: 'owner', emails: members.map((member) => member.user_email) };
}

const roleLabel: Record<MemberRole, string> = { viewer: 'Viewer', editor: 'Editor' };

/** The card's short line after its 'Shared' badge: 'with you · Editor', 'with a@x.com', 'with 3 people'. */
export function sharingLabel(sharing: DirectorySharing): string {
  if (sharing.kind === 'member') return sharing.role ? `with you · ${roleLabel[sharing.role]}` : 'with you';
  const { emails } = sharing;
  return emails.length <= EMAILS_NAMED ? `with ${emails.join(', ')}` : `with ${emails.length} people`;
}

/** The full sentence (for the title and screen readers). */
export function sharingDescription(sharing: DirectorySharing): string {
  if (sharing.kind === 'member') {
    return sharing.role ? `Shared with you as ${roleLabel[sharing.role]}` : 'Shared with you';
  }
  return `Shared with ${sharing.emails.join(', ')}`;
}
