import { messages } from '../../domain/sync-codes.ts';
import { isReminderChoice, isValidTimeZone } from '../../domain/validation.ts';
import { refuse } from '../mutation-error.ts';
import { present, type Mutator } from '../mutator.ts';
import { rowTarget } from '../targets.ts';

const USERNAME = /^[a-z0-9_-]{3,30}$/;

export const profileUpdate: Mutator<'profile.update'> = {
  tables: ['user_profiles'],
  targets: (_args, ctx) => [rowTarget('user_profiles', ctx.userId)],
  async validate(_tx, args) {
    const out = { ...args };
    if (out.username !== undefined && out.username !== null) {
      const username = out.username.trim().toLowerCase();
      if (!USERNAME.test(username)) refuse('invalid', messages.username);
      out.username = username;
    }
    if (out.full_name !== undefined) out.full_name = (out.full_name ?? '').trim();
    if (out.bio !== undefined) out.bio = out.bio ?? '';
    if (out.time_zone !== undefined && !isValidTimeZone(out.time_zone)) refuse('invalid', messages.timeZone);
    if (!isReminderChoice(out.default_reminder_minutes)) refuse('invalid', messages.reminder);
    return out;
  },
  async apply(tx, args, ctx) {
    const { bio, full_name, ...rest } = present(args, [
      'username',
      'bio',
      'full_name',
      'time_zone',
      'default_reminder_minutes',
      'theme',
    ]);
    await tx.user_profiles.update(ctx.userId, {
      ...rest,
      ...(bio !== undefined ? { bio: bio ?? '' } : {}),
      ...(full_name !== undefined ? { full_name: full_name ?? '' } : {}),
      updated_at: ctx.now().toISOString(),
    });
  },
};
