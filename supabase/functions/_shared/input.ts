/**
 * The functions' input check: a request's JSON body or query parsed with a valibot schema (the
 * client's, from src/domain, where the client sends the same input). Anything the schema refuses,
 * and a body that is no JSON, is `{ error }` with a clear message naming the field, for the
 * function to answer with 400 before anything is read, queued or sent on. Runs on Deno and Node.
 */
import * as v from 'valibot';
import { firstIssue } from '../../../src/domain/input-schema.ts';

export type Input<T> = { ok: true; value: T } | { ok: false; error: string };

export const NOT_JSON = 'The request body must be a JSON object.';

/** `value` checked against `schema`. */
export function checkInput<S extends v.GenericSchema>(schema: S, value: unknown): Input<v.InferOutput<S>> {
  const result = v.safeParse(schema, value);
  return result.success ? { ok: true, value: result.output } : { ok: false, error: firstIssue(result.issues) };
}

/** The request's JSON body checked against `schema`. */
export async function readJson<S extends v.GenericSchema>(req: Request, schema: S): Promise<Input<v.InferOutput<S>>> {
  let value: unknown;
  try {
    value = JSON.parse(await req.text());
  } catch {
    return { ok: false, error: NOT_JSON };
  }
  return checkInput(schema, value);
}

/**
 * The address's query checked against `schema`: each parameter given once is a string, one given
 * more than once an array of them (which a schema of strings refuses: it is ambiguous).
 */
export function readQuery<S extends v.GenericSchema>(url: string | URL, schema: S): Input<v.InferOutput<S>> {
  const params = new URL(url).searchParams;
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return checkInput(schema, query);
}
