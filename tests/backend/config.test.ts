import { describe, expect, it } from 'vitest';
import { jwtVerify } from 'jose';
import { DEV_ANON_KEY as appKey } from '../../src/backend/config.ts';
import { DEV_ANON_KEY as stackKey, DEV_JWT_SECRET } from '../../supabase/local/keys.ts';

describe('development keys', () => {
  it('the app falls back to the anon key the local stack accepts', async () => {
    expect(appKey).toBe(stackKey);
    const { payload } = await jwtVerify(appKey, new TextEncoder().encode(DEV_JWT_SECRET));
    expect(payload.role).toBe('anon');
  });
});
