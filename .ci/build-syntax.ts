/**
 * The app's build targets ES2022 (vite.config.ts, `build.target`): a browser that runs ES2022 must
 * be able to parse every script the build ships. Rolldown lowers the app's own syntax, but not
 * every newer form a dependency may bring, and one such form makes its whole chunk fail to load.
 * A regular expression with the `v` flag (ES2024) is the known case: the build rewrites such a
 * literal into `RegExp(source, 'gv')`, which parses everywhere and throws when the chunk runs in
 * a browser without the flag. This parses each built script as ES2022 and looks for those calls,
 * and names every script that is not ES2022.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';

interface AstNode {
  type: string;
  start: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is AstNode =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** A constant string argument's value (a string literal or a template without substitutions). */
function constantString(node: unknown): string | null {
  if (!isNode(node)) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && Array.isArray(node.expressions) && node.expressions.length === 0) {
    const [quasi] = node.quasis as { value: { cooked: string | null } }[];
    return quasi?.value.cooked ?? null;
  }
  return null;
}

/** `RegExp(…, '…v…')` or `new RegExp(…, '…v…')`: the v flag, asked for at run time. */
function vFlagCall(node: AstNode): boolean {
  if (node.type !== 'CallExpression' && node.type !== 'NewExpression') return false;
  const callee = node.callee;
  if (!isNode(callee) || callee.type !== 'Identifier' || callee.name !== 'RegExp') return false;
  const flags = constantString((node.arguments as unknown[])[1]);
  return flags !== null && flags.includes('v');
}

/** What in `source` is not ES2022 (a parse error, or where a v-flag RegExp is made), or null. */
export function es2022Problem(source: string, kind: 'module' | 'script'): string | null {
  let tree: unknown;
  try {
    tree = parse(source, { ecmaVersion: 2022, sourceType: kind });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const stack: unknown[] = [tree];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...(value as unknown[]));
    else if (isNode(value)) {
      if (vFlagCall(value)) return `a RegExp with the v flag (ES2024) at offset ${value.start}`;
      for (const [key, child] of Object.entries(value)) if (key !== 'type') stack.push(child);
    }
  }
  return null;
}

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => join(entry.parentPath, entry.name));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = scripts('dist');
  // The service worker is a classic script (workbox's generateSW); the rest are modules.
  const problems = files.flatMap((file) => {
    const problem = es2022Problem(readFileSync(file, 'utf8'), file.endsWith('sw.js') ? 'script' : 'module');
    return problem ? [`${file}: ${problem}`] : [];
  });
  for (const problem of problems) console.error(`Not ES2022: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(`${files.length} built scripts parse as ES2022.`);
}
