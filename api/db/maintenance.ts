import { sql } from "drizzle-orm";
import type { Database } from "./client";
import { rowsOf } from "./rows";

/**
 * Autovacuum's default thresholds (PostgreSQL's `autovacuum_*` settings): a table is vacuumed when
 * its dead rows pass 50 + 20 % of its rows, or the rows inserted since its last vacuum pass
 * 1,000 + 20 % (that vacuum also merges a GIN index's pending entries, which every full-text
 * search otherwise reads one by one); it is analysed when the rows changed since its last analysis
 * pass 50 + 10 %.
 */
const VACUUM_BASE = 50;
const VACUUM_SHARE = 0.2;
const INSERT_VACUUM_BASE = 1000;
const INSERT_VACUUM_SHARE = 0.2;
const ANALYZE_BASE = 50;
const ANALYZE_SHARE = 0.1;

interface TableActivity {
  schema: string;
  name: string;
  rows: number;
  dead: number;
  inserted: number;
  modified: number;
}

/** Whether the database server runs autovacuum (its launcher is one of its processes). */
export async function autovacuumRuns(db: Database) {
  const [{ running }] = rowsOf<{ running: boolean }>(
    await db.execute(sql`
    select exists (select 1 from pg_stat_activity where pg_stat_activity.backend_type = 'autovacuum launcher') as running`),
  );
  return running;
}

export type Maintenance = { skipped: string } | { vacuumed: string[]; analyzed: string[] };

/**
 * Does autovacuum's work when nothing else does. Embedded PGlite runs Postgres as a single process
 * with no autovacuum launcher, so its tables were never vacuumed or analysed: each refresh left
 * its URLs' old row versions and index entries behind for good (the URL table grew by a fifth a
 * refresh on the 5,000-page bench site, and reading it slowed with it), the planner had no
 * statistics, and full-text search read the GIN pending list on every question. The same holds
 * for a PostgreSQL server whose autovacuum is turned off. Where a launcher runs, its work is left
 * to it. Tables past autovacuum's thresholds are vacuumed and analysed one at a time (VACUUM
 * cannot run inside a transaction, and one table at a time keeps each pause of the embedded
 * database's only connection short: under a second for 85,000 passages).
 */
export async function maintainTables(db: Database): Promise<Maintenance> {
  if (await autovacuumRuns(db)) return { skipped: "the database server's autovacuum looks after its tables" };
  // A backend reports its tables' counters when idle, at most once a second: this one's (the
  // embedded database's only one) are reported now, so a run just ended is counted.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const tables = rowsOf<TableActivity>(
    await db.execute(sql`
    select s.schemaname as schema, s.relname as name, greatest(c.reltuples, s.n_live_tup)::float8 as rows,
      s.n_dead_tup::float8 as dead, s.n_ins_since_vacuum::float8 as inserted, s.n_mod_since_analyze::float8 as modified
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where c.relkind in ('r', 'm')`),
  );
  const vacuumed: string[] = [];
  const analyzed: string[] = [];
  for (const table of tables) {
    const rows = Math.max(0, Number(table.rows));
    const vacuum =
      Number(table.dead) > VACUUM_BASE + VACUUM_SHARE * rows ||
      Number(table.inserted) > INSERT_VACUUM_BASE + INSERT_VACUUM_SHARE * rows;
    const analyze = Number(table.modified) > ANALYZE_BASE + ANALYZE_SHARE * rows;
    if (!vacuum && !analyze) continue;
    const name = sql`${sql.identifier(table.schema)}.${sql.identifier(table.name)}`;
    await db.execute(vacuum ? sql`vacuum (analyze) ${name}` : sql`analyze ${name}`);
    const label = `${table.schema}.${table.name}`;
    if (vacuum) vacuumed.push(label);
    analyzed.push(label);
  }
  return { vacuumed, analyzed };
}
