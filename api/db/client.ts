import { fileURLToPath } from "node:url";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The open database plus what pg-boss and shutdown need to reach underneath Drizzle. */
export type DatabaseHandle =
  | { kind: "pglite"; db: Database; pglite: PGlite; close: () => Promise<void> }
  | { kind: "postgres"; db: Database; pool: pg.Pool; connectionString: string; close: () => Promise<void> };

export type DatabaseOptions =
  /** Real Postgres through node-postgres. */
  | { url: string }
  /** Embedded PGlite kept in a folder, or in memory when `dir` is omitted (tests). */
  | { dir?: string };

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** Opens the database and applies every pending migration before anyone uses it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("url" in options) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection the server closes (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on("error", (error) => console.warn(`[db] idle connection lost: ${error.message}`));
    const db = drizzlePg({ client: pool, schema }) as unknown as Database;
    await migratePg(db as never, { migrationsFolder });
    return { kind: "postgres", db, pool, connectionString: options.url, close: () => pool.end() };
  }
  if (options.dir) mkdirSync(options.dir, { recursive: true });
  // pg_trgm backs the URL substring search; PGlite ships it as a loadable extension.
  const extensions = { pg_trgm };
  const pglite = options.dir ? new PGlite(options.dir, { extensions }) : new PGlite({ extensions });
  await pglite.waitReady;
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Database;
  await migratePglite(db as never, { migrationsFolder });
  return { kind: "pglite", db, pglite, close: () => pglite.close() };
}
