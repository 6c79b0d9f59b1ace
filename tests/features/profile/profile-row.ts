import type { UserProfileRow } from '../../../src/data/rows.ts';
import { makeProfile } from '../../support/builders.ts';

/** The signed-in user's synced profile row (Ada, u1, on Free, UTC), with overrides. */
export function makeProfileRow(overrides: Partial<UserProfileRow> = {}): UserProfileRow {
  return makeProfile({
    id: 'u1',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    email: 'ada@example.com',
    full_name: 'Ada',
    username: 'ada',
    ...overrides,
  });
}
