/**
 * The journeys' consoles on a real PostgreSQL server (opt-in): with E2E_DATABASE_URL (a server's
 * URL, e.g. postgres://postgres@127.0.0.1:5432/postgres) every console a journey run starts with
 * its own API gets a throw-away database of its own there, dropped when that console stops.
 * Without it each console keeps embedded PGlite in its data folder, as before.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

const serverUrl = process.env.E2E_DATABASE_URL ?? "";

/** Whether the journeys run on PostgreSQL (E2E_DATABASE_URL is set). */
export const onPostgres = serverUrl !== "";

/**
 * This run's databases are named after its port base: two runs on one port base cannot run side
 * by side (their consoles would share ports), so a run may drop what an earlier one left behind
 * with that prefix without touching a run beside it.
 */
const prefix = `console_e2e_${Number(process.env.E2E_PORT_BASE ?? 4400)}_`;

async function asAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

export interface E2eDatabase {
  /** The console's DATABASE_URL: "" for embedded PGlite. */
  url: string;
  /** Drops the database (its connections too); nothing on PGlite, whose folder its caller removes. */
  drop: () => Promise<void>;
}

/** A database of its own for one console, `label` naming which in the database's name. */
export async function e2eDatabase(label: string): Promise<E2eDatabase> {
  if (!onPostgres) return { url: "", drop: async () => {} };
  const name = `${prefix}${label}_${randomBytes(4).toString("hex")}`;
  await asAdmin((admin) => admin.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      asAdmin(async (admin) => {
        // A closed console's pool has let its connections go but not yet seen them close: the
        // forced drop would cut them, and the console would report each as lost.
        for (let waited = 0; waited < 5000; waited += 100) {
          const { rows } = await admin.query<{ open: number }>(
            "select count(*)::int as open from pg_stat_activity where datname = $1",
            [name],
          );
          if (rows[0].open === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await admin.query(`drop database if exists ${name} with (force)`);
      }),
  };
}

/** Drops the databases an earlier run on this port base left behind (one that was killed). */
export async function dropLeftoverE2eDatabases(): Promise<void> {
  if (!onPostgres) return;
  await asAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      "select datname from pg_database where starts_with(datname, $1)",
      [prefix],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
  });
}
