/** PostgREST's error body {code, details, hint, message} and its mapping from SQLSTATE to HTTP status. */
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface RestErrorBody {
  code: string;
  details: string | null;
  hint: string | null;
  message: string;
}

export class RestFailure extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly body: RestErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

export const restFail = (
  status: ContentfulStatusCode,
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
) => new RestFailure(status, { code, details, hint, message });

/**
 * PostgREST's answer when it cannot reach the database or loses its connection (PGRST000: not
 * reachable; PGRST001: the connection failed), 503 with Retry-After: the request may be sent again.
 */
export function connectionLost(error: unknown): RestFailure {
  const refused = (error as { code?: unknown } | null)?.code === 'ECONNREFUSED';
  return new RestFailure(
    503,
    refused
      ? {
          code: 'PGRST000',
          details: null,
          hint: null,
          message:
            'Could not connect with the database due to an incorrect db-uri or due to the PostgreSQL service not running.',
        }
      : {
          code: 'PGRST001',
          details: error instanceof Error ? error.message : null,
          hint: null,
          message: 'Could not connect with the database due to an internal error.',
        },
    { 'Retry-After': '1' },
  );
}

/** PostgREST's status for a database error (docs: "Errors from PostgreSQL"). */
export function statusForSqlState(code: string, role: string): ContentfulStatusCode {
  const custom = /^PT(\d{3})$/.exec(code);
  if (custom) return Number(custom[1]) as ContentfulStatusCode;
  const exact: Record<string, ContentfulStatusCode> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    P0001: 400,
    '42883': 404,
    '42P01': 404,
    '42P17': 500,
    '42501': role === 'anon' ? 401 : 403,
  };
  if (exact[code]) return exact[code];
  const byClass: Record<string, ContentfulStatusCode> = {
    '08': 503,
    '09': 500,
    '0L': 403,
    '0P': 403,
    '25': 500,
    '28': 403,
    '2D': 500,
    '38': 500,
    '39': 500,
    '3B': 500,
    '40': 500,
    '53': 503,
    '54': 500,
    '55': 500,
    '57': 500,
    '58': 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

interface PgError {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  hint?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

function parseObject(value: unknown): Record<string, unknown> | undefined {
  try {
    const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : undefined;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PostgREST's `raise sqlstate 'PGRST' using message = '{"code", "message", "details", "hint"}',
 * detail = '{"status": 429, "headers": {"Retry-After": "60"}}'`: the function chooses the answer.
 */
function customFailure(e: PgError): RestFailure | undefined {
  const body = parseObject(e.message);
  const detail = parseObject(e.detail);
  const status = Number(detail?.status);
  if (!body || !detail || !Number.isInteger(status) || status < 400 || status > 599) return undefined;
  const headers = Object.fromEntries(
    Object.entries(typeof detail.headers === 'object' && detail.headers !== null ? detail.headers : {}).map(
      ([key, value]) => [key, String(value)],
    ),
  );
  return new RestFailure(
    status as ContentfulStatusCode,
    {
      code: text(body.code) ?? 'PGRST',
      message: text(body.message) ?? 'database error',
      details: text(body.details),
      hint: text(body.hint),
    },
    headers,
  );
}

/** A RestFailure for an error thrown by pg or PGlite; anything without a SQLSTATE is rethrown. */
export function fromDatabaseError(error: unknown, role: string): RestFailure {
  const e = (error ?? {}) as PgError;
  if (typeof e.code !== 'string' || !/^[0-9A-Z]{5}$/.test(e.code)) throw error;
  if (e.code === 'PGRST') {
    const custom = customFailure(e);
    if (custom) return custom;
  }
  return new RestFailure(statusForSqlState(e.code, role), {
    code: e.code,
    details: text(e.detail),
    hint: text(e.hint),
    message: text(e.message) ?? 'database error',
  });
}
