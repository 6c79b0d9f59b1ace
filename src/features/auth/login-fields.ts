import { usernameError } from '../../domain/username.ts';

export type LoginMode = 'sign-in' | 'sign-up';

export interface LoginFields {
  email: string;
  password: string;
  username: string;
}

export type FieldErrors = Partial<Record<keyof LoginFields, string>>;

/** Every missing or invalid field at once (docs/product.md, Validation: email and password required; the username rule on sign-up). */
export function loginFieldErrors(mode: LoginMode, fields: LoginFields): FieldErrors {
  const errors: FieldErrors = {};
  if (fields.email.trim() === '') errors.email = 'Email is required.';
  if (fields.password === '') errors.password = 'Password is required.';
  if (mode === 'sign-up') {
    const username = usernameError(fields.username);
    if (username) errors.username = username;
  }
  return errors;
}
