/**
 * Splits SQL scripts into statements (quotes, dollar quotes and comments respected) and names the
 * database object a statement defines, so the schema tools can match supabase/schemas files,
 * migrations and the catalog object by object.
 */

export interface Statement {
  /** The statement's code, without its leading comments, ending with ';'. */
  code: string;
  /** The `--` comment lines right above it (no blank line between), or ''. */
  comment: string;
}

/** Splits a script into statements. */
export function splitStatements(sql: string): Statement[] {
  const statements: Statement[] = [];
  let start = 0;
  let i = 0;
  const push = (end: number) => {
    const chunk = sql.slice(start, end);
    start = end;
    if (chunk.replace(/--[^\n]*/g, '').trim() === '') return;
    statements.push(withComment(chunk));
  };
  while (i < sql.length) {
    const ch = sql[i];
    const next = sql[i + 1];
    if (ch === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (ch === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (ch === "'") {
      const escapes = /[eE]/.test(sql[i - 1] ?? '') && !/[\w$]/.test(sql[i - 2] ?? '');
      i++;
      while (i < sql.length) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") break;
        else i++;
      }
      i++;
    } else if (ch === '"') {
      const end = sql.indexOf('"', i + 1);
      i = end === -1 ? sql.length : end + 1;
    } else if (ch === '$' && !/[\w$]/.test(sql[i - 1] ?? '')) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        i = end === -1 ? sql.length : end + tag[0].length;
      } else i++;
    } else if (ch === ';') {
      i++;
      push(i);
    } else i++;
  }
  push(sql.length);
  return statements;
}

function withComment(chunk: string): Statement {
  const lines = chunk.replace(/^\s*\n/, '').split('\n');
  // Leading lines that are blank or comments; the comment kept is the block right above the code.
  let first = 0;
  while (first < lines.length && /^\s*(--.*)?$/.test(lines[first] ?? '')) first++;
  let top = first;
  while (top > 0 && /^\s*--/.test(lines[top - 1] ?? '')) top--;
  return {
    code: lines.slice(first).join('\n').trim(),
    comment: lines
      .slice(top, first)
      .map((line) => line.trim())
      .join('\n'),
  };
}

const ident = String.raw`(?:"[^"]+"|[A-Za-z_][\w$]*)`;
const qualified = String.raw`(${ident}(?:\s*\.\s*${ident})?)`;

/** schema.name, unquoted, with `public` when no schema is given. */
export function qualify(name: string, schema = 'public'): string {
  const parts = name.split(/\s*\.\s*/).map((part) => part.replace(/^"|"$/g, ''));
  return parts.length === 2 ? `${parts[0]}.${parts[1]}` : `${schema}.${parts[0]}`;
}

const unquote = (name: string) => name.replace(/^"|"$/g, '');

/**
 * The object a statement belongs to, as the catalog snapshot groups them: `function s.name`,
 * `trigger s.table.name`, `policy s.table.name`, `view s.name`; null for anything else.
 */
export function objectOf(code: string): string | null {
  const text = code.replace(/\s+/g, ' ');
  let m = new RegExp(String.raw`^create (?:or replace )?function ${qualified}\s*\(`, 'i').exec(text);
  if (m) return `function ${qualify(m[1]!)}`;
  m = new RegExp(String.raw`^(?:grant|revoke|comment)\b.*? on function ${qualified}\s*\(`, 'i').exec(text);
  if (m) return `function ${qualify(m[1]!)}`;
  m = new RegExp(String.raw`^drop function (?:if exists )?${qualified}\s*\(`, 'i').exec(text);
  if (m) return `function ${qualify(m[1]!)}`;
  m = new RegExp(String.raw`^create (?:or replace )?(?:constraint )?trigger (${ident}) .*? on ${qualified} `, 'i').exec(
    text,
  );
  if (m) return `trigger ${qualify(m[2]!)}.${unquote(m[1]!)}`;
  m = new RegExp(String.raw`^drop trigger (?:if exists )?(${ident}) on ${qualified}`, 'i').exec(text);
  if (m) return `trigger ${qualify(m[2]!)}.${unquote(m[1]!)}`;
  m = new RegExp(String.raw`^(?:create|drop|alter) policy (?:if exists )?(${ident}) on ${qualified}`, 'i').exec(text);
  if (m) return `policy ${qualify(m[2]!)}.${unquote(m[1]!)}`;
  m = new RegExp(String.raw`^(?:create (?:or replace )?|drop |alter )view (?:if exists )?${qualified}`, 'i').exec(text);
  if (m) return `view ${qualify(m[1]!)}`;
  return null;
}

/** Whether a statement creates (rather than grants, comments or drops) its object. */
export function isDefinition(code: string): boolean {
  return /^create\b/i.test(code.trim());
}
