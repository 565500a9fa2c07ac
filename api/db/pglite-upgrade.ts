import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

/** The PostgreSQL major version of the embedded database this release runs (PGlite 0.6). */
export const EMBEDDED_POSTGRES_MAJOR = 19;

/** The major version whose data folders this release upgrades: the release before's (PGlite 0.5). */
const UPGRADED_FROM_MAJOR = 18;

/** The schema the console's migrations write; pg-boss's own schema is left out (see below). */
const COPIED_SCHEMA = "public";

/** Written into the new folder once every row is in it: from then on the upgrade only has to be put in place. */
const COMPLETE_MARKER = "UPGRADE_COMPLETE";

type Queryable = Pick<PGlite, "query" | "exec">;

export type UpgradeLog = { info: (message: string) => void };

/**
 * A data folder of the embedded database written by an older PostgreSQL does not open in a newer
 * one, as with any major upgrade of PostgreSQL. So a folder PostgreSQL 18 wrote (the console's
 * release before) is copied into a new one before the database starts:
 *
 * 1. the old folder is opened with the old engine (the `pglite-postgres-18` package) and brought up
 *    to this release's migrations, so both have the same tables with the same columns;
 * 2. a new folder beside it gets the migrations, then every table's rows by `COPY`, with triggers and
 *    foreign keys held off (`session_replication_role = replica`: the rows are already consistent,
 *    and the counting triggers must not count them twice), then each sequence where it stood;
 * 3. the row counts are compared table by table, the new folder is marked complete, the old one is
 *    kept beside it as `<folder>.postgres-18` (the operator removes it when satisfied) and the new one
 *    takes the folder's name.
 *
 * pg-boss's job queue is not carried: its schema is made afresh when the queue starts, and the
 * scheduled recovery sends again the work of websites, files and test runs whose job is gone
 * (api/jobs/recovery.ts). A failure before step 3 leaves the old folder where it was, with no more
 * than this release's migrations added (which the release before passes over), so this release can
 * try again or the release before open it; a stop between the two renames is finished on the next start.
 *
 * Answers whether a folder was upgraded.
 */
export async function upgradeEmbeddedDataFolder(
  dir: string,
  migrationsFolder: string,
  log: UpgradeLog,
  /** Settings both engines start with beside their own defaults, as the console's database does (its page cache). */
  settings: string[] = [],
) {
  const next = `${dir}.upgrading`;
  const kept = `${dir}.postgres-${UPGRADED_FROM_MAJOR}`;
  if (!existsSync(dir) && existsSync(path.join(next, COMPLETE_MARKER))) {
    // Stopped between the two renames: the complete copy is put in place.
    renameSync(next, dir);
    rmSync(path.join(dir, COMPLETE_MARKER));
    return true;
  }
  const major = majorVersionOf(dir);
  if (major === undefined || major === EMBEDDED_POSTGRES_MAJOR) return false;
  if (major !== UPGRADED_FROM_MAJOR) {
    throw new Error(
      `The database folder was written by PostgreSQL ${major}; this release opens folders of PostgreSQL ` +
        `${EMBEDDED_POSTGRES_MAJOR} and upgrades those of ${UPGRADED_FROM_MAJOR}.`,
    );
  }
  if (existsSync(kept)) {
    throw new Error(
      `The database folder needs an upgrade from PostgreSQL ${major}, but a kept copy of an earlier upgrade ` +
        `is in its way (${path.basename(kept)} beside it): move it elsewhere and start again.`,
    );
  }
  log.info(`[db] upgrading the database folder from PostgreSQL ${major} to ${EMBEDDED_POSTGRES_MAJOR}…`);
  const started = performance.now();
  rmSync(next, { recursive: true, force: true });
  const old = await openWithReleaseBeforeEngine(dir, settings);
  let fresh: PGlite | undefined;
  try {
    await migrate(drizzle({ client: old }), { migrationsFolder });
    fresh = await PGlite.create(next, {
      extensions: { pg_trgm },
      startParams: [...PGlite.defaultStartParams, ...settings],
    });
    await migrate(drizzle({ client: fresh }), { migrationsFolder });
    const rows = await copyRows(old, fresh);
    await fresh.close();
    fresh = undefined;
    writeFileSync(path.join(next, COMPLETE_MARKER), "");
    await old.close();
    renameSync(dir, kept);
    renameSync(next, dir);
    rmSync(path.join(dir, COMPLETE_MARKER));
    log.info(
      `[db] upgraded the database folder: ${rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `the PostgreSQL ${major} folder is kept beside it as ${path.basename(kept)}`,
    );
    return true;
  } catch (error) {
    await fresh?.close().catch(() => undefined);
    if (!old.closed) await old.close().catch(() => undefined);
    rmSync(next, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A data folder opened with the release before's engine (PostgreSQL 18), with the extension the
 * console's migrations create. It is loaded only when called: every other start reads one small
 * file and goes on.
 */
export async function openWithReleaseBeforeEngine(dir: string, settings: string[] = []): Promise<PGlite> {
  const [{ PGlite: PGlite18 }, { pg_trgm: pg_trgm18 }] = await Promise.all([
    import("pglite-postgres-18"),
    import("pglite-postgres-18/contrib/pg_trgm"),
  ]);
  const old = await PGlite18.create(dir, {
    extensions: { pg_trgm: pg_trgm18 },
    startParams: [...PGlite18.defaultStartParams, ...settings],
  });
  // The two engines' classes differ only in version: the members used here are the same.
  return old as unknown as PGlite;
}

/** The PostgreSQL major version that wrote a data folder, or undefined where there is none yet. */
function majorVersionOf(dir: string): number | undefined {
  const file = path.join(dir, "PG_VERSION");
  if (!existsSync(file)) return undefined;
  return Number(readFileSync(file, "utf8").trim());
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Rows a `COPY` moves at once: each batch is held in both engines' memory and as a blob between them. */
const COPY_BATCH_ROWS = 10_000;

/**
 * The `where` clauses that cut a table with an integer `id` into batches of about COPY_BATCH_ROWS
 * rows, so a large store's passages do not pass through memory all at once; a table without one
 * (the small ones: counts, settings) goes in one.
 */
async function batchesOf(source: Queryable, qualified: string): Promise<string[]> {
  const { rows } = await source.query<{ low: number | null; high: number | null }>(
    `select min(id)::float8 as low, max(id)::float8 as high from ${qualified}`,
  );
  const { low, high } = rows[0];
  if (low === null || high === null || !Number.isSafeInteger(low) || !Number.isSafeInteger(high)) return [""];
  const batches: string[] = [];
  for (let from = low; from <= high; from += COPY_BATCH_ROWS)
    batches.push(`where id >= ${from} and id < ${from + COPY_BATCH_ROWS}`);
  return batches;
}

/** Every table's rows and every sequence's position, from `source` into the migrated `target`; answers the rows copied. */
async function copyRows(source: Queryable, target: Queryable): Promise<number> {
  const tables = (
    await source.query<{ table: string; columns: string[]; numbered: boolean }>(
      `select c.relname as table, array_agg(a.attname::text order by a.attnum) as columns,
         bool_or(a.attname = 'id' and a.atttypid in ('int2'::regtype, 'int4'::regtype, 'int8'::regtype)) as numbered
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
       where n.nspname = $1 and c.relkind = 'r'
       group by c.relname order by c.relname`,
      [COPIED_SCHEMA],
    )
  ).rows;
  await target.exec("set session_replication_role = replica");
  // Rows a migration wrote itself are in the old folder too.
  if (tables.length)
    await target.exec(`truncate ${tables.map((t) => `${COPIED_SCHEMA}.${quoted(t.table)}`).join(", ")}`);
  let copied = 0;
  for (const { table, columns, numbered } of tables) {
    const qualified = `${COPIED_SCHEMA}.${quoted(table)}`;
    const columnList = columns.map(quoted).join(", ");
    for (const rows of numbered ? await batchesOf(source, qualified) : [""]) {
      const out = await source.query(`copy (select ${columnList} from ${qualified} ${rows}) to '/dev/blob'`);
      if (out.blob) await target.query(`copy ${qualified} (${columnList}) from '/dev/blob'`, [], { blob: out.blob });
    }
    const count = async (db: Queryable) =>
      Number((await db.query<{ n: string }>(`select count(*) as n from ${qualified}`)).rows[0].n);
    const [had, has] = await Promise.all([count(source), count(target)]);
    if (had !== has)
      throw new Error(`The upgrade copied ${has} of the ${had} rows of ${table}; the old folder stays in use.`);
    copied += has;
  }
  const sequences = (
    await source.query<{ name: string; last: string | null }>(
      `select format('%I.%I', schemaname, sequencename) as name, last_value::text as last
       from pg_sequences where schemaname = $1`,
      [COPIED_SCHEMA],
    )
  ).rows;
  for (const { name, last } of sequences) {
    if (last === null) await target.query(`select setval($1::regclass, 1, false)`, [name]);
    else await target.query(`select setval($1::regclass, $2::bigint, true)`, [name, last]);
  }
  await target.exec("set session_replication_role = origin");
  return copied;
}
