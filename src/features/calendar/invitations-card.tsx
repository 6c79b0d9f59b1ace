import type { InvitationRow } from '../../data/rows.ts';
import { usePendingInvitations } from '../../data/queries/time-polls.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { formatDate, formatDateTime, formatTime } from '../../domain/date-format.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from './calendar-items.tsx';

/** Half a day: an all-day invitation's midnights are its creator's, so its day is read at its middle. */
const HALF_DAY_MS = 12 * 3_600_000;

/** When an invitation is, in the user's zone: 'Fri 27 Nov 2026, 09:00–10:00', or its day and 'All day'. */
export function invitationWhen(invitation: InvitationRow, timeZone: string): string {
  if (invitation.all_day) {
    return `${formatDate(new Date(Date.parse(invitation.starts_at) + HALF_DAY_MS), timeZone)}, All day`;
  }
  return `${formatDateTime(invitation.starts_at, timeZone)}–${formatTime(invitation.ends_at, timeZone)}`;
}

/**
 * The Calendar's 'Invitations' (docs/product.md, Find a time): the times picked for the user that
 * they have not answered yet, each with 'Accept' (the event joins their calendar) and 'Decline'.
 * Shown only while there is one.
 */
export function InvitationsCard({ timeZone }: { timeZone: string }) {
  const { db, mutate } = useUserDb();
  const invitations = usePendingInvitations(db);
  if (!invitations || invitations.length === 0) return null;
  const answer = (invitation: InvitationRow, accept: boolean) =>
    void mutate('invitation.answer', {
      id: invitation.id,
      accept,
      event_id: invitation.event_id ?? crypto.randomUUID(),
    }).catch((error: unknown) => console.error('Invitation answer failed', error));
  return (
    <Card id="invitations" title="Invitations">
      <ul className="divide-y divide-slate-100">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center gap-3 py-2">
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium break-words text-slate-900">{invitation.title}</p>
              <p className="text-sm text-slate-600">
                {invitationWhen(invitation, timeZone)}
                {invitation.inviter_name ? ` · ${invitation.inviter_name}` : ''}
              </p>
            </div>
            <Button aria-label={`Accept ${invitation.title}`} onClick={() => answer(invitation, true)}>
              Accept
            </Button>
            <Button
              variant="secondary"
              aria-label={`Decline ${invitation.title}`}
              onClick={() => answer(invitation, false)}
            >
              Decline
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
