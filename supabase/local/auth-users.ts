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
  'created_at', ${isoSql('u.created_at')}, 'updated_at', ${isoSql('u.updated_at')}, 'is_anonymous', u.is_anonymous
)::text`;

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
    `select ${userJson} as "user", coalesce(u.banned_until > now(), false) as banned from auth.users u where ${where}`,
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

export async function insertUser(
  sql: Sql,
  user: { id: string; email: string; password: string; data: Record<string, unknown> },
): Promise<void> {
  await sql.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
     values ($1, 'authenticated', 'authenticated', lower($2), extensions.crypt($3, extensions.gen_salt('bf', 10)), now(),
       '{"provider":"email","providers":["email"]}'::jsonb, $4::jsonb)`,
    [user.id, user.email, user.password, JSON.stringify(user.data)],
  );
}

/** PUT /user: new email, new password, user_metadata merged (a null value removes the key). */
export async function updateUser(
  sql: Sql,
  id: string,
  changes: { email?: string; password?: string; data?: Record<string, unknown> },
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
       email = coalesce(lower($2), email),
       encrypted_password = case when $3::text is null then encrypted_password
                                 else extensions.crypt($3, extensions.gen_salt('bf', 10)) end,
       raw_user_meta_data = case when $4::jsonb is null then raw_user_meta_data
                                 else (raw_user_meta_data || $4::jsonb)
                                   - array(select key from jsonb_each($4::jsonb) where value = 'null'::jsonb) end,
       updated_at = now()
     where id = $1`,
    [id, changes.email ?? null, changes.password ?? null, changes.data ? JSON.stringify(changes.data) : null],
  );
}

export async function touchSignIn(sql: Sql, id: string): Promise<void> {
  await sql.query('update auth.users set last_sign_in_at = now() where id = $1', [id]);
}
