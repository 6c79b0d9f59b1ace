import { monthStart, underLimit } from '../../domain/limits.ts';
import { tierOf } from '../../domain/plans.ts';
import { isPollOpen } from '../../domain/polls.ts';
import { messages } from '../../domain/sync-codes.ts';
import { cleanPollOptions, isBlank, parseInstant } from '../../domain/validation.ts';
import { directoryOrRefuse, roleIn } from '../access.ts';
import { refuse } from '../mutation-error.ts';
import { countPollsCreatedSince } from '../counts.ts';
import { stamp, type LinkboardTx, type Mutator } from '../mutator.ts';
import { rowTarget } from '../targets.ts';
import type { MutationArgs } from '../../domain/mutation-contract.ts';
import type { MutationContext } from '../mutation-context.ts';
import type { PollRow, VoteRow } from '../rows.ts';

/**
 * Who may create a poll here, and the quota (docs/product.md, Plans and limits): a team poll needs
 * access to the directory and its owner on Team; a Free user's public poll counts against the
 * month's quota. Shared by 'Options' and 'Find a time' polls (both count as polls).
 */
export async function checkPollQuota(tx: LinkboardTx, directoryId: string | null, ctx: MutationContext): Promise<void> {
  if (directoryId !== null) {
    const directory = await directoryOrRefuse(tx, directoryId);
    if (!(await roleIn(tx, directory, ctx))) refuse('forbidden', messages.noDirectoryAccess);
    // Team polls follow the directory owner's plan (as the server decides), not the creator's;
    // until a shared directory's row has brought its owner's plan, the server decides alone.
    const ownerPlan =
      directory.owner_id === ctx.userId ? ctx.tier : directory.owner_tier ? tierOf(directory.owner_tier) : null;
    if (ownerPlan !== null && ownerPlan !== 'team') refuse('limit_reached', messages.teamPolls);
  } else if (ctx.tier === 'free') {
    // A public poll of a Free user: the quota counts all their polls of the month (public and
    // team, docs/product.md, Plans and limits); a team poll follows the owner's plan instead.
    const mine = await countPollsCreatedSince(tx, ctx.userId, monthStart(ctx.now(), ctx.timeZone).getTime());
    if (!underLimit(ctx.tier, 'pollsPerMonth', mine)) refuse('limit_reached', messages.morePolls);
  }
}

export const pollCreate: Mutator<'poll.create'> = {
  tables: ['voting_posts', 'link_directories', 'directory_members', 'user_profiles'],
  targets: (args) => [rowTarget('voting_posts', args.id)],
  async validate(tx, args, ctx) {
    if (isBlank(args.title)) refuse('invalid', messages.linkTitle);
    const options = Array.isArray(args.options) ? cleanPollOptions(args.options) : null;
    if (!options) refuse('invalid', messages.pollOptions);
    const deadline = parseInstant(args.deadline);
    if (deadline === 'invalid') refuse('invalid', messages.invalidDate);
    if (deadline !== null && deadline <= ctx.now().getTime()) refuse('invalid', messages.pollDeadline);
    await checkPollQuota(tx, args.directory_id ?? null, ctx);
    return {
      ...args,
      title: args.title.trim(),
      description: args.description === '' ? null : (args.description ?? null),
      options,
      deadline: args.deadline ?? null,
      directory_id: args.directory_id ?? null,
    };
  },
  async apply(tx, args, ctx) {
    // The creator as the server records them: the username, never the address (docs/product.md).
    const profile = await tx.user_profiles.get(ctx.userId);
    await tx.voting_posts.put({
      id: args.id,
      title: args.title,
      description: args.description ?? null,
      options: args.options.map((text) => ({ text, votes: 0 })),
      deadline: args.deadline ?? null,
      directory_id: args.directory_id ?? null,
      created_by: profile?.username ?? null,
      created_by_id: ctx.userId,
      is_active: true,
      ...stamp(ctx),
    });
  },
};

export const pollVote: Mutator<'poll.vote'> = {
  tables: ['voting_posts', 'user_votes'],
  // The vote, and the poll its count goes into.
  targets: (args) => [rowTarget('user_votes', args.id), rowTarget('voting_posts', args.post_id)],
  async validate(tx, args, ctx) {
    const poll = (await tx.voting_posts.get(args.post_id)) ?? refuse('not_found', messages.pollNotFound);
    if (!isPollOpen(poll, ctx.now())) refuse('poll_closed', messages.pollClosed);
    if (!Number.isInteger(args.option_index) || args.option_index < 0 || args.option_index >= poll.options.length) {
      refuse('invalid', messages.invalidOption);
    }
    const votes = await tx.user_votes.where('post_id').equals(args.post_id).toArray();
    if (votes.some((vote) => vote.user_id === ctx.userId)) refuse('already_voted', messages.alreadyVoted);
    return args;
  },
  /** Counts the vote into the poll once per poll row version: `local_votes` marks it counted. */
  async apply(tx, args, ctx) {
    await tx.user_votes.put(voteRow(args, ctx));
    const poll = await tx.voting_posts.get(args.post_id);
    if (!poll || poll.local_votes?.includes(args.id)) return;
    await tx.voting_posts.put(countedIn(poll, args));
  },
  /** The vote, and its count in the poll shown (a closed poll or a second vote: the transaction refuses). */
  predict(args, ctx) {
    if (!Number.isInteger(args.option_index) || args.option_index < 0) return null;
    return [
      { table: 'user_votes', key: args.id, row: voteRow(args, ctx) },
      { table: 'voting_posts', key: args.post_id, update: (poll) => countedIn(poll as PollRow, args) },
    ];
  },
};

function voteRow(args: MutationArgs['poll.vote'], ctx: MutationContext): VoteRow {
  return {
    id: args.id,
    post_id: args.post_id,
    option_index: args.option_index,
    user_email: ctx.email.trim().toLowerCase(),
    user_id: ctx.userId,
    ...stamp(ctx),
  };
}

/** The poll with the vote counted, once (`local_votes` marks it counted). */
function countedIn(poll: PollRow, args: MutationArgs['poll.vote']): PollRow {
  if (poll.local_votes?.includes(args.id)) return poll;
  const options = poll.options.map((option, index) =>
    index === args.option_index ? { ...option, votes: option.votes + 1 } : option,
  );
  return { ...poll, options, local_votes: [...(poll.local_votes ?? []), args.id] };
}
