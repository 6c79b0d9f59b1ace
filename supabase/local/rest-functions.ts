/**
 * Finds a public function by name and argument names in pg_proc (as PostgREST's schema cache
 * does) and builds the call: arguments decoded from the JSON body by json_to_record, so values
 * convert to the parameter types exactly as PostgREST converts them, and the result as JSON text.
 */
import type { Sql } from './db.ts';
import { restFail } from './rest-errors.ts';

export interface FunctionDef {
  volatile: 'i' | 's' | 'v';
  retset: boolean;
  ndefaults: number;
  names: string[];
  modes: string[];
  types: string[];
  rettype: string;
  retkind: string;
}

interface Arg {
  name: string;
  type: string;
  variadic: boolean;
}

export type ResultShape = 'void' | 'scalar' | 'object' | 'scalars' | 'objects';

export interface FunctionCall {
  text: string;
  shape: ResultShape;
  volatile: FunctionDef['volatile'];
}

const lookup = `
  select json_build_object(
    'volatile', p.provolatile, 'retset', p.proretset, 'ndefaults', p.pronargdefaults,
    'names', coalesce(p.proargnames, '{}'::text[]),
    'modes', coalesce(p.proargmodes::text[], '{}'::text[]),
    'types', (select coalesce(json_agg(format_type(t.typ, null) order by t.ord), '[]'::json)
                from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality t(typ, ord)),
    'rettype', format_type(p.prorettype, null), 'retkind', rt.typtype
  )::text as def
  from pg_proc p join pg_type rt on rt.oid = p.prorettype
  where p.pronamespace = 'public'::regnamespace and p.proname = $1 and p.prokind = 'f'
  order by p.oid`;

export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

function inputArgs(def: FunctionDef): Arg[] {
  return def.types.flatMap((type, index) => {
    const mode = def.modes[index] ?? 'i';
    if (mode === 'o' || mode === 't') return [];
    return [{ name: def.names[index] ?? '', type, variadic: mode === 'v' }];
  });
}

function shapeOf(def: FunctionDef): ResultShape {
  if (def.rettype === 'void') return 'void';
  const rows = def.retkind === 'c' || def.rettype === 'record' || def.modes.some((m) => m === 'o' || m === 't');
  if (def.retset) return rows ? 'objects' : 'scalars';
  return rows ? 'object' : 'scalar';
}

function select(shape: ResultShape, call: string, from: string): string {
  const join = from ? `${from}, ` : '';
  switch (shape) {
    case 'void':
      return `select ${call} as body ${from ? `from ${from}` : ''}`;
    case 'scalar':
      return `select to_json(${call})::text as body ${from ? `from ${from}` : ''}`;
    case 'object':
      return `select to_json(_r)::text as body from ${join}${call} _r`;
    case 'scalars':
      return `select coalesce(json_agg(_r.v), '[]'::json)::text as body from ${join}${call} _r(v)`;
    case 'objects':
      return `select coalesce(json_agg(_r), '[]'::json)::text as body from ${join}${call} _r`;
  }
}

/**
 * Resolved calls, like PostgREST's schema cache, so a request does not read pg_proc each time.
 * An entry lives a few seconds (a function replaced by a migration or a test is seen soon
 * after), and a call whose function is gone is dropped at once (forgetCall).
 */
const CACHE_MS = 5_000;
const resolved = new WeakMap<Sql, Map<string, { call: FunctionCall; at: number }>>();

function cacheOf(sql: Sql): Map<string, { call: FunctionCall; at: number }> {
  let cache = resolved.get(sql);
  if (!cache) resolved.set(sql, (cache = new Map()));
  return cache;
}

const cacheKey = (fn: string, argNames: string[]) => `${fn}(${[...argNames].sort().join(',')})`;

/** Drops the cached calls of `fn` (its definition changed or it is gone). */
export function forgetCall(sql: Sql, fn: string): void {
  const cache = cacheOf(sql);
  for (const key of cache.keys()) if (key.startsWith(`${fn}(`)) cache.delete(key);
}

/** The call for these argument names; the SQL takes the arguments as one JSON object in $1. */
export async function resolveCall(sql: Sql, fn: string, argNames: string[], now = Date.now()): Promise<FunctionCall> {
  const cache = cacheOf(sql);
  const key = cacheKey(fn, argNames);
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) return hit.call;
  const call = await lookupCall(sql, fn, argNames);
  cache.set(key, { call, at: now });
  return call;
}

async function lookupCall(sql: Sql, fn: string, argNames: string[]): Promise<FunctionCall> {
  const { rows } = await sql.query<{ def: string }>(lookup, [fn]);
  const defs = rows.map((row) => JSON.parse(row.def) as FunctionDef);
  const given = new Set(argNames);
  const matches = defs.filter((def) => {
    const args = inputArgs(def);
    if (args.some((arg) => !arg.name)) return false;
    const required = args.slice(0, args.length - def.ndefaults);
    return (
      argNames.every((name) => args.some((arg) => arg.name === name)) && required.every((arg) => given.has(arg.name))
    );
  });
  const def = matches.sort((a, b) => inputArgs(a).length - inputArgs(b).length)[0];
  if (def) {
    const args = inputArgs(def).filter((arg) => given.has(arg.name));
    const call = `public.${ident(fn)}(${args
      .map((arg) => `${arg.variadic ? 'variadic ' : ''}${ident(arg.name)} => _a.${ident(arg.name)}`)
      .join(', ')})`;
    const from = args.length
      ? `json_to_record($1::json) as _a(${args.map((arg) => `${ident(arg.name)} ${arg.type}`).join(', ')})`
      : '';
    return { text: select(shapeOf(def), call, from), shape: shapeOf(def), volatile: def.volatile };
  }
  // PostgREST's other form: one unnamed json or jsonb parameter receives the whole body.
  const single = defs.find((d) => {
    const args = inputArgs(d);
    return args.length === 1 && !args[0]?.name && (args[0]?.type === 'json' || args[0]?.type === 'jsonb');
  });
  if (single) {
    const call = `public.${ident(fn)}($1::${inputArgs(single)[0]?.type})`;
    return { text: select(shapeOf(single), call, ''), shape: shapeOf(single), volatile: single.volatile };
  }
  const list = [...argNames].sort().join(', ');
  throw restFail(
    404,
    'PGRST202',
    `Could not find the function public.${fn}(${list}) in the schema cache`,
    `Searched for the function public.${fn} ${
      argNames.length ? `with parameters ${list}` : 'without parameters'
    } or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    defs.length ? `Perhaps you meant to call the function public.${fn} with other arguments` : null,
  );
}
