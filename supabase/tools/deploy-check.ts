/**
 * npm run deploy:check -- <database URL>: reads what a hosted deployment needs (docs/deploy.md)
 * and names each thing missing or wrong; exits 1 if any is, 2 when it cannot run.
 *
 *   npm run deploy:check -- 'postgresql://postgres.<ref>:<password>@<pooler host>:5432/postgres'
 *   SUPABASE_URL=https://<ref>.supabase.co SUPABASE_ANON_KEY=... npm run deploy:check -- <database URL>
 *
 * The URL may also come from DEPLOY_DATABASE_URL. With SUPABASE_URL and SUPABASE_ANON_KEY it also
 * asks the project's API whether schema private is exposed. It reads, never writes.
 */
import { pathToFileURL } from 'node:url';
import { openPostgres } from '../local/db.ts';
import { checkDeployment, type ApiTarget, type Finding } from './deploy-checks.ts';

const LABELS: Record<Finding['verdict'], string> = { ok: 'ok', missing: 'MISSING', unknown: 'cannot check' };

/** The report, one line per check, and the exit code (1 when something is missing). */
export function report(findings: Finding[]): { text: string; code: number } {
  const width = Math.max(...findings.map((finding) => finding.check.length));
  const lines = findings.map(
    (finding) => `${LABELS[finding.verdict].padEnd(12)} ${finding.check.padEnd(width)}  ${finding.message}`,
  );
  const failed = findings.filter((finding) => finding.verdict === 'missing').length;
  lines.push('', failed ? `${failed} missing or wrong: see docs/deploy.md.` : 'Nothing missing.');
  return { text: lines.join('\n'), code: failed ? 1 : 0 };
}

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const databaseUrl = argv[0] ?? env.DEPLOY_DATABASE_URL;
  if (!databaseUrl) {
    console.error('Usage: npm run deploy:check -- <database URL> (or set DEPLOY_DATABASE_URL)');
    return 2;
  }
  const api: ApiTarget | undefined =
    env.SUPABASE_URL && env.SUPABASE_ANON_KEY ? { url: env.SUPABASE_URL, anonKey: env.SUPABASE_ANON_KEY } : undefined;
  const db = openPostgres(databaseUrl);
  try {
    const { text, code } = report(await checkDeployment(db, { api }));
    console.log(text);
    return code;
  } catch (error) {
    console.error(`deploy:check could not read the database: ${(error as Error).message}`);
    return 2;
  } finally {
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
