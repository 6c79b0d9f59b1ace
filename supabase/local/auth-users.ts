/** auth.users rows as GoTrue returns them. Timestamps and JSON are produced by SQL, so both databases agree. */
import type { Sql } from './db.ts';
import { isoSql } from './context.ts';
import { fail } from './auth-errors.ts';

export interface AuthUser {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  email_confirmed_at: string | null;
  phone: string;
  confirmed_at: string | null;
  last_sign_in_at: string | null;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  identities: unknown[];
  created_at: string;
  updated_at: string;
  is_anonymous: boolean;
  confirmation_sent_at?: string;
  /** An e-mail change waiting for the new address to confirm it. */
  new_email?: string;
  email_change_sent_at?: string;
}

const userJson = `json_build_object(
  'id', u.id, 'aud', u.aud, 'role', u.role, 'email', u.email,
  'email_confirmed_at', ${isoSql('u.email_confirmed_at')}, 'phone', '',
  'confirmed_at', ${isoSql('u.email_confirmed_at')}, 'last_sign_in_at', ${isoSql('u.last_sign_in_at')},
  'app_metadata', u.raw_app_meta_data, 'user_metadata', u.raw_user_meta_data,
  'identities', case when u.email is null then json_build_array() else json_build_array(json_build_object(
    'identity_id', u.id, 'id', u.id::text, 'user_id', u.id,
    'identity_data', json_build_object('email', u.email, 'email_verified', u.email_confirmed_at is not null,
      'phone_verified', false, 'sub', u.id::text),
    'provider', 'email', 'last_sign_in_at', ${isoSql('u.last_sign_in_at')},
    'created_at', ${isoSql('u.created_at')}, 'updated_at', ${isoSql('u.updated_at')}, 'email', lower(u.email))) end,
  'created_at', ${isoSql('u.created_at')}, 'updated_at', ${isoSql('u.updated_at')}, 'is_anonymous', u.is_anonymous,
  'confirmation_sent_at', ${isoSql('u.confirmation_sent_at')}, 'new_email', u.email_change,
  'email_change_sent_at', ${isoSql('u.email_change_sent_at')}
)::jsonb - array(select k from unnest(array['confirmation_sent_at', 'new_email', 'email_change_sent_at']) k
                 where (case k when 'confirmation_sent_at' then u.confirmation_sent_at is null
                               when 'new_email' then u.email_change is null
                               else u.email_change_sent_at is null end))`;

interface UserRow {
  user: string;
  banned: boolean;
}

async function selectUser(
  sql: Sql,
  where: string,
  params: unknown[],
): Promise<{ user: AuthUser; banned: boolean } | undefined> {
  const { rows } = await sql.query<UserRow>(
    `select (${userJson})::text as "user", coalesce(u.banned_until > now(), false) as banned from auth.users u where ${where}`,
    params,
  );
  const row = rows[0];
  return row ? { user: JSON.parse(row.user) as AuthUser, banned: row.banned } : undefined;
}

export async function userById(sql: Sql, id: string): Promise<AuthUser | undefined> {
  return (await selectUser(sql, 'u.id = $1', [id]))?.user;
}

/** The user whose email and password match, or an invalid_credentials failure. */
export async function userByPassword(sql: Sql, email: string, password: string): Promise<AuthUser> {
  const found = await selectUser(
    sql,
    `lower(u.email) = lower($1) and u.encrypted_password is not null
     and u.encrypted_password = extensions.crypt($2, u.encrypted_password)`,
    [email, password],
  );
  if (!found) throw fail(400, 'invalid_credentials', 'Invalid login credentials');
  if (found.banned) throw fail(400, 'user_banned', 'User is banned');
  return found.user;
}

export async function emailTaken(sql: Sql, email: string, exceptId?: string): Promise<boolean> {
  const { rows } = await sql.query(
    'select 1 from auth.users where lower(email) = lower($1) and ($2::uuid is null or id <> $2::uuid)',
    [email, exceptId ?? null],
  );
  return rows.length > 0;
}

/** The bcrypt cost hosted GoTrue stores passwords with. */
export const PASSWORD_COST = 10;

/** A new account, its address unconfirmed until the mailed link's token (its hash here) comes back; `cost`: bcrypt's. */
export async function insertUser(
  sql: Sql,
  user: { id: string; email: string; password: string; data: Record<string, unknown>; tokenHash: string },
  cost: number,
): Promise<void> {
  await sql.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token,
       confirmation_sent_at, raw_app_meta_data, raw_user_meta_data)
     values ($1, 'authenticated', 'authenticated', lower($2), extensions.crypt($3, extensions.gen_salt('bf', $6::int)), null,
       $5, now(), '{"provider":"email","providers":["email"]}'::jsonb, $4::jsonb)`,
    [user.id, user.email, user.password, JSON.stringify(user.data), user.tokenHash, cost],
  );
}

/** How long a mailed confirmation link works. */
export const CONFIRMATION_LINK_HOURS = 24;

/** A new confirmation token for an unconfirmed account; its id, or undefined when there is none. */
export async function renewConfirmation(sql: Sql, email: string, tokenHash: string): Promise<string | undefined> {
  const { rows } = await sql.query<{ id: string }>(
    `update auth.users set confirmation_token = $2, confirmation_sent_at = now()
      where lower(email) = lower($1) and email_confirmed_at is null returning id`,
    [email, tokenHash],
  );
  return rows[0]?.id;
}

/** Confirms the address whose link carried the token; the user's id, or undefined for an unknown or expired link. */
export async function confirmSignup(sql: Sql, tokenHash: string): Promise<string | undefined> {
  const { rows } = await sql.query<{ id: string }>(
    `update auth.users set email_confirmed_at = now(), confirmation_token = null, updated_at = now()
      where confirmation_token = $1 and email_confirmed_at is null
        and confirmation_sent_at > now() - make_interval(hours => $2)
      returning id`,
    [tokenHash, CONFIRMATION_LINK_HOURS],
  );
  return rows[0]?.id;
}

/** Records an e-mail change that waits for the new address to confirm it. */
export async function requestEmailChange(sql: Sql, id: string, email: string, tokenHash: string): Promise<void> {
  await sql.query(
    `update auth.users set email_change = lower($2), email_change_token_new = $3, email_change_sent_at = now(),
       updated_at = now() where id = $1`,
    [id, email, tokenHash],
  );
}

export async function renewEmailChange(sql: Sql, newEmail: string, tokenHash: string): Promise<string | undefined> {
  const { rows } = await sql.query<{ id: string }>(
    `update auth.users set email_change_token_new = $2, email_change_sent_at = now()
      where email_change = lower($1) and email_change_token_new is not null returning id`,
    [newEmail, tokenHash],
  );
  return rows[0]?.id;
}

/**
 * Applies the e-mail change whose link carried the token: the new address becomes the account's,
 * confirmed. Undefined for an unknown or expired link, 'taken' when another account has the
 * address by now.
 */
export async function confirmEmailChange(sql: Sql, tokenHash: string): Promise<string | 'taken' | undefined> {
  const { rows } = await sql.query<{ id: string; email: string }>(
    `select id, email_change as email from auth.users
      where email_change_token_new = $1 and email_change is not null
        and email_change_sent_at > now() - make_interval(hours => $2)
      for update`,
    [tokenHash, CONFIRMATION_LINK_HOURS],
  );
  const row = rows[0];
  if (!row) return undefined;
  if (await emailTaken(sql, row.email, row.id)) return 'taken';
  await sql.query(
    `update auth.users set email = email_change, email_change = null, email_change_token_new = null,
       email_change_sent_at = null, email_confirmed_at = now(), confirmation_token = null, updated_at = now()
     where id = $1`,
    [row.id],
  );
  return row.id;
}

/** PUT /user: new password, user_metadata merged (a null value removes the key); e-mail changes wait (above). */
export async function updateUser(
  sql: Sql,
  id: string,
  changes: { password?: string; data?: Record<string, unknown> },
  cost: number,
): Promise<void> {
  if (changes.password !== undefined) {
    const { rows } = await sql.query(
      'select 1 from auth.users where id = $1 and encrypted_password = extensions.crypt($2, encrypted_password)',
      [id, changes.password],
    );
    if (rows.length) throw fail(422, 'same_password', 'New password should be different from the old password.');
  }
  await sql.query(
    `update auth.users set
       encrypted_password = case when $2::text is null then encrypted_password
                                 else extensions.crypt($2, extensions.gen_salt('bf', $4::int)) end,
       raw_user_meta_data = case when $3::jsonb is null then raw_user_meta_data
                                 else (raw_user_meta_data || $3::jsonb)
                                   - array(select key from jsonb_each($3::jsonb) where value = 'null'::jsonb) end,
       updated_at = now()
     where id = $1`,
    [id, changes.password ?? null, changes.data ? JSON.stringify(changes.data) : null, cost],
  );
}

export async function touchSignIn(sql: Sql, id: string): Promise<void> {
  await sql.query('update auth.users set last_sign_in_at = now() where id = $1', [id]);
}
