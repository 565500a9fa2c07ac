import { fileURLToPath } from "node:url";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { PGliteOnThread } from "./pglite-on-thread";
import { upgradeEmbeddedDataFolder } from "./pglite-upgrade";
import { timedStatement } from "./statement-timing";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * The open database plus what pg-boss and shutdown need to reach underneath Drizzle.
 * `backgroundDb` is what job handlers use: on PGlite, the database's background lane, which gives
 * way to every page and API call (PGliteOnThread.background); on PostgreSQL, the same pool.
 */
export type DatabaseHandle =
  | { kind: "pglite"; db: Database; backgroundDb: Database; pglite: PGliteOnThread; close: () => Promise<void> }
  | {
      kind: "postgres";
      db: Database;
      backgroundDb: Database;
      pool: pg.Pool;
      connectionString: string;
      /** Ends the pool, waiting at most `waitMs` (CLOSE_WAIT_MS) for connections still in use. */
      close: (waitMs?: number) => Promise<void>;
    };

/**
 * How long closing waits for a connection still in use. A job the queue stopped waiting for may
 * hold one on a statement that does not end; the process stops all the same, and its lease hands
 * that work to another worker.
 */
export const CLOSE_WAIT_MS = 10_000;

export type DatabaseOptions =
  /** Real Postgres through node-postgres. */
  | { url: string }
  /**
   * Embedded PGlite kept in a folder, or in memory when `dir` is omitted (tests). An in-memory one
   * may start `from` a dump of a migrated database (the test suite's template: tests/support/database-template.ts).
   */
  | { dir?: string; from?: string };

/**
 * The planner's price of a random page read. Postgres' default (4) prices spinning disks and makes
 * full-text search scan every chunk rather than use its GIN index; the console's data lives in
 * memory (PGlite) or on SSDs, where 1.1 is the usual setting (docs/decisions/013-bounded-retrieval.md).
 */
export const RANDOM_PAGE_COST = 1.1;

/**
 * PGlite's page cache. Postgres' default (128 MB) is sized for a server of its own; inside the
 * console's process it is memory held for good, and PGlite reads a page it does not hold from its
 * own file system at memory speed. 32 MB took ~90 MB off the idle process and left chat answers
 * over 50,000 chunks at p95 28 ms (docs/decisions/019).
 */
export const PGLITE_SHARED_BUFFERS = "32MB";

/**
 * Every session works in UTC. A self-hosted server's default time zone follows its host's, and
 * `date`, `::date` of a timestamptz and timestamps printed as text (in JSON, say) go by the
 * session's zone: Insights' UTC days then fell on the wrong days. Sent as a connection option
 * (node-postgres, pg-boss), which a database's own `timezone` setting does not override.
 */
export const UTC_SESSION_OPTION = "-c TimeZone=UTC";

/**
 * node-postgres and pg-boss's connection settings for `url` with `ours` among its session options.
 * node-postgres reads a URL's own `options` parameter (a hosted server's endpoint id, a statement
 * timeout, a search path) in place of the options given beside the URL, which dropped ours: UTC
 * and the planner's page cost. So the URL's come out of it and go first, ours after them: of two
 * settings of one name the server keeps the last.
 */
export function withSessionOptions(url: string, ours: string): { connectionString: string; options: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, options: ours };
  }
  const theirs = parsed.searchParams.get("options")?.trim();
  if (theirs === undefined) return { connectionString: url, options: ours };
  parsed.searchParams.delete("options");
  return { connectionString: parsed.toString(), options: theirs ? `${theirs} ${ours}` : ours };
}

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** An advisory lock key of our own (any fixed number no other code of ours uses). */
const MIGRATION_LOCK = 0x6d16;

/**
 * Runs `work` while this process holds a session-level advisory lock. Processes starting together
 * on one database (web servers, workers) would otherwise apply the same migration at once, and
 * all but one fail on tables that already exist. A killed holder's lock ends with its connection.
 */
async function whileHoldingLock<T>(pool: pg.Pool, key: number, work: () => Promise<T>): Promise<T> {
  const holder = await pool.connect();
  try {
    await holder.query("select pg_advisory_lock($1)", [key]);
    try {
      return await work();
    } finally {
      await holder.query("select pg_advisory_unlock($1)", [key]);
    }
  } finally {
    holder.release();
  }
}

/** Makes `queryable.query` time each promised statement into the current API request. */
function timeStatementsOf(queryable: { query: (...args: never[]) => unknown }) {
  const query = queryable.query.bind(queryable) as (...args: unknown[]) => unknown;
  queryable.query = ((...args: unknown[]) => {
    // A statement with a callback (pg's older form) or a submittable (a cursor, a stream) answers
    // nothing to wait for: left as it is.
    const submittable = typeof (args[0] as { submit?: unknown } | undefined)?.submit === "function";
    if (submittable || typeof args[args.length - 1] === "function") return query(...args);
    return timedStatement(() => query(...args) as Promise<unknown>);
  }) as never;
}

/**
 * Whether `work` settled within `ms` (its failure included: the caller still holds `work` to read
 * it). What closing waits on: past the bound it goes on without it.
 */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      waited,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends the pool once every connection in use is given back, or after `waitMs` ends those still in
 * use: pg's own `end()` waits for them without limit, and one held by a statement that never ends
 * (a lock wait, a server that stopped answering) kept a stopping process alive for good.
 */
async function endPool(pool: pg.Pool, inUse: Set<pg.PoolClient>, waitMs: number) {
  const ended = pool.end();
  if (await settledWithin(ended, waitMs)) return ended;
  console.warn(`[db] ${inUse.size} connection(s) still in use after ${waitMs / 1000} s of closing: ended`);
  // A statement in flight fails with its connection, and whoever waits on it hears so. Not waited
  // for: ending a connection whose server no longer answers is what could not finish.
  for (const client of inUse) void client.end().catch(() => {});
}

/** Opens the database and applies every pending migration before anyone uses it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("url" in options) {
    const pool = new pg.Pool({
      ...withSessionOptions(options.url, `-c random_page_cost=${RANDOM_PAGE_COST} ${UTC_SESSION_OPTION}`),
      max: 10,
    });
    // An idle connection the server closes (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on("error", (error) => console.warn(`[db] idle connection lost: ${error.message}`));
    // Statements are timed into the API request they run for (its Server-Timing header): the
    // pool's own, and those of the connections transactions take from it.
    timeStatementsOf(pool);
    pool.on("connect", (client) => {
      timeStatementsOf(client);
      // The same for a connection a transaction or the job queue holds: the pool listens only while
      // it is idle, and an 'error' nobody listens to ends the process. The statement in flight fails
      // with it, and the pool drops the connection when it is given back.
      client.on("error", (error) => console.warn(`[db] connection lost: ${error.message}`));
    });
    const inUse = new Set<pg.PoolClient>();
    pool.on("acquire", (client) => inUse.add(client));
    pool.on("release", (_error, client) => inUse.delete(client));
    const db = drizzlePg({ client: pool, schema }) as unknown as Database;
    await whileHoldingLock(pool, MIGRATION_LOCK, () => migratePg(db as never, { migrationsFolder }));
    return {
      kind: "postgres",
      db,
      backgroundDb: db,
      pool,
      connectionString: options.url,
      close: (waitMs = CLOSE_WAIT_MS) => endPool(pool, inUse, waitMs),
    };
  }
  const settings = ["-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  if (options.dir) {
    // A folder the release before wrote (PostgreSQL 18) is copied into one this engine opens first.
    await upgradeEmbeddedDataFolder(options.dir, migrationsFolder, console, settings);
    mkdirSync(options.dir, { recursive: true });
  }
  const startParams = [...PGlite.defaultStartParams, ...settings];
  // PGlite runs on a thread of its own, so its statements leave the main thread free to serve.
  const pglite = new PGliteOnThread({ dir: options.dir, from: options.dir ? undefined : options.from, startParams });
  await pglite.waitReady;
  // PGlite is one session for the life of the process: a session setting holds for every query
  // (UTC whatever its configuration file says: UTC_SESSION_OPTION).
  await pglite.exec(`set random_page_cost = ${RANDOM_PAGE_COST}; set time zone 'UTC'`);
  // Drizzle's driver uses the members the thread's stand-in has (query, exec, transaction).
  const db = drizzlePglite({ client: pglite as unknown as PGlite, schema }) as unknown as Database;
  await migratePglite(db as never, { migrationsFolder });
  const backgroundDb = drizzlePglite({
    client: pglite.background() as unknown as PGlite,
    schema,
  }) as unknown as Database;
  return { kind: "pglite", db, backgroundDb, pglite, close: () => pglite.close() };
}
