import type { Tier } from '../domain/plans.ts';

/** Who mutates, and when: injected so tests are deterministic. */
export interface MutationContext {
  userId: string;
  email: string;
  tier: Tier;
  now(): Date;
  /** The user's time zone; monthly quotas count in it (docs/product.md, Plans and limits). */
  timeZone: string;
}
