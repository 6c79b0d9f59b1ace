/**
 * Backups of a PostgreSQL database (docs/deploy.md, Backups; when DATABASE_URL is set): a real
 * stack filled through the API, then the docs' pg_dump, createdb and pg_restore commands, run for
 * real on a database of this run; the restored database is served again and the same password
 * finds the same rows. The embedded database's backups are backup-restore.test.ts.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../../supabase/local/db.ts';
import { projectRoot } from '../../supabase/local/app.ts';
import { countOf, fill, signInAndPull, startOn, tables } from '../support/backup-stack.ts';
import { postgresDb } from '../support/db.ts';
import { adminUrl, databaseUrlFor } from '../support/pg-url.ts';

const run = promisify(execFile);
const PG_BIN = '/usr/lib/postgresql/15/bin';
/** The restored database's URL as docs/deploy.md writes it. */
const DOCS_RESTORED_URL = "'postgres://user:password@host:5432/linkboard_restored'";

/** The pg_dump, createdb and pg_restore lines of docs/deploy.md's Backups, PostgreSQL. */
function documentedPgCommands(): string[] {
  const text = readFileSync(join(projectRoot, 'docs', 'deploy.md'), 'utf8');
  const section = text.slice(text.indexOf('### PostgreSQL (`DATABASE_URL`)'), text.indexOf('### Checking a restore'));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((match) => (match[1] ?? '').split('\n'))
    .filter((line) => /^(pg_dump|createdb|pg_restore) /.test(line));
}

describe.runIf(process.env.DATABASE_URL)('backups of a PostgreSQL database (pg_dump -Fc, pg_restore)', () => {
  it('dumps, restores into a new database on the same cluster, and the same password finds the rows', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'linkboard-pgdump-'));
    const { db, url } = await postgresDb({ empty: false });
    // Named after this run's template, so the run's teardown drops it even if this test fails.
    const name = `${inject('pgTemplate').replace('lb_template_', 'lb_test_')}_restored_${randomUUID().slice(0, 8)}`;
    const restoredUrl = databaseUrlFor(url, name);
    try {
      const stack = await startOn({ db });
      const { filled, before } = await (async () => {
        try {
          const made = await fill(stack);
          return { filled: made, before: await signInAndPull(stack, made.email) };
        } finally {
          await stack.close();
        }
      })();
      const sums = await tables(db);
      expect(countOf(sums, 'public.outgoing_mail')).toBeGreaterThan(0);
      expect(countOf(sums, 'private.throttle_attempts')).toBeGreaterThan(0);

      // docs/deploy.md, Backups: the commands as written there, on this run's databases.
      const commands = documentedPgCommands();
      expect(commands.map((line) => line.split(' ')[0])).toEqual(['pg_dump', 'createdb', 'pg_restore']);
      for (const line of commands) {
        const command = line.replaceAll(DOCS_RESTORED_URL, `'${restoredUrl}'`).replaceAll('linkboard_restored', name);
        await run('bash', ['-c', command], {
          cwd: tmp,
          env: { ...process.env, DATABASE_URL: url, PATH: `${PG_BIN}:${process.env.PATH ?? ''}` },
        });
      }
      expect(existsSync(join(tmp, 'linkboard.dump'))).toBe(true);

      const restored = openPostgres(restoredUrl);
      try {
        expect(await tables(restored)).toEqual(sums);
      } finally {
        await restored.close();
      }
      const again = await startOn({ databaseUrl: restoredUrl });
      try {
        expect(await signInAndPull(again, filled.email)).toEqual(before);
      } finally {
        await again.close();
      }
    } finally {
      await db.close();
      const admin = openPostgres(adminUrl(url));
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
