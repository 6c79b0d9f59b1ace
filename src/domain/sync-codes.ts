/** Rejection codes of the sync protocol (docs/sync-protocol.md) and the wording of docs/product.md (docs/product.md, Error messages). */
export const mutationErrorCodes = [
  'limit_reached',
  'forbidden',
  'invalid',
  'not_found',
  'poll_closed',
  'already_voted',
  'conflict',
] as const;

export type MutationErrorCode = (typeof mutationErrorCodes)[number];

export function isMutationErrorCode(value: unknown): value is MutationErrorCode {
  return typeof value === 'string' && (mutationErrorCodes as readonly string[]).includes(value);
}

/** Messages shared by the client's checks and the server's (supabase/migrations/*_rules.sql). */
export const messages = {
  moreDirectories: 'Upgrade to Pro to create more directories.',
  moreLinks: 'Upgrade to Pro to save more links.',
  editorRole: 'Upgrade to Pro to assign the Editor role.',
  moreEvents: 'Upgrade to Pro to create more than 10 events per month.',
  morePolls: 'Upgrade to Pro to create more than 5 voting posts per month.',
  tags: 'Upgrade to Pro to use tags.',
  favourites: 'Upgrade to Pro to use favourites.',
  recurring: 'Recurring events are a Pro feature.',
  passwords: 'Upgrade to Pro to protect directories with a password.',
  teamPolls: 'Shared team voting boards are exclusive to the Team plan.',
  pollOptions: 'Please provide at least 2 voting options',
  pollDeadline: 'The deadline cannot be earlier than now.',
  pollClosed: 'This poll is closed.',
  pollNotFound: 'Poll not found.',
  alreadyVoted: 'You have already voted on this poll.',
  invalidOption: 'Invalid option.',
  directoryNotFound: 'Directory not found.',
  directoryName: 'Directory name is required.',
  directoryColor: 'Unknown directory colour.',
  ownerOnly: 'Only the owner can manage members.',
  ownerOnlyDirectory: 'Only the owner can change this directory.',
  cannotEditLinks: 'You do not have permission to add or edit links in this directory.',
  linkNotFound: 'Link not found.',
  linkUrl: 'Url is required.',
  linkTitle: 'Title is required.',
  httpOnly: 'Only http and https links can be saved.',
  tagTooLong: 'Tags can be at most 50 characters.',
  memberEmail: 'Please enter a valid email address.',
  memberRole: 'Role must be viewer or editor.',
  memberExists: 'This person is already a member of this directory.',
  memberNotFound: 'Member not found.',
  eventTitle: 'Title is required.',
  eventStart: 'Start is required for events.',
  eventRange: 'The end cannot be before the start.',
  allDayDate: 'An all-day item needs a date.',
  eventPriority: 'Priority must be low, medium or high.',
  reminder: 'Choose a reminder from the list.',
  eventNotFound: 'Event not found.',
  seriesTask: 'An event in a recurring series cannot become a task.',
  seriesRule: 'Repeat must be daily, weekly or monthly.',
  seriesUntil: 'The repeat-until date is required when a rule is chosen.',
  seriesSize: 'A series can have between 1 and 1,000 occurrences.',
  username: 'Please choose a username (min 3 chars).',
  timeZone: 'Unknown time zone.',
  notAuthenticated: 'Not authenticated',
  invalidDate: 'Invalid date.',
  creationDate: 'Invalid creation date.',
} as const;
