/**
 * Autovacuum's ANALYZE, for the embedded PGlite (a real PostgreSQL, hosted or local, runs its own
 * autovacuum; PGlite has no background workers). Without it a table's statistics are never
 * taken, and a plan PL/pgSQL keeps for the session stays the one made when the table was nearly
 * empty. Measured (tests/bench/sync-sql.ts, SYNC_SQL_WARM=1): a read of one link by `id` walked the
 * whole partial index saved_links_owner_idx (`where deleted_at is null`, cheapest on a tiny table),
 * about 35,000 entries per mutation once another user held 40,000 links, so a push of 1,000 took
 * 7 s instead of 0.7 s. ANALYZE invalidates those plans.
 *
 * A round analyzes the tables autovacuum would: more rows changed since their last ANALYZE than
 * autovacuum_analyze_threshold + autovacuum_analyze_scale_factor × their row count (50 + 10 %).
 */
import type { Sql } from './db.ts';
import { startRounds, type Rounds } from './rounds.ts';

export interface AutoAnalyzeTiming {
  /** The first round, after start. */
  firstMs: number;
  /** Between rounds (autovacuum's naptime is 60 s; PGlite's one connection makes a round cheap). */
  everyMs: number;
}

export const AUTO_ANALYZE_TIMING: AutoAnalyzeTiming = { firstMs: 1000, everyMs: 2000 };

/** One round: ANALYZE each table past autovacuum's threshold; answers their names. */
export async function analyzeChangedTables(db: Sql): Promise<string[]> {
  // Counts of this connection's changes reach pg_stat_user_tables when it next goes idle, at most
  // once a second unless told to: told here, they are flushed as this statement ends.
  await db.query('select pg_stat_force_next_flush()');
  const { rows } = await db.query<{ name: string }>(
    `select format('%I.%I', s.schemaname, s.relname) as name
     from pg_stat_user_tables s
     join pg_class c on c.oid = s.relid
     where s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
             + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)
     order by 1`,
  );
  for (const { name } of rows) await db.exec(`analyze ${name}`);
  return rows.map((row) => row.name);
}

export type AutoAnalyzer = Rounds;

export function startAutoAnalyze(db: Sql, timing: AutoAnalyzeTiming = AUTO_ANALYZE_TIMING): AutoAnalyzer {
  return startRounds(timing.firstMs, async () => {
    try {
      await analyzeChangedTables(db);
    } catch (error) {
      console.error('[auto-analyze] round failed:', error instanceof Error ? error.message : error);
    }
    return timing.everyMs;
  });
}
