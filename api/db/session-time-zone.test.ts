import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase, quietLog } from "../../tests/support/test-host";
import { PgBossJobQueue } from "../jobs/queue";
import { rowsOf } from "./rows";
import { openDatabase, type Database, type DatabaseHandle } from "./client";

/*
 * A self-hosted PostgreSQL's default time zone follows its host's. Every session the console opens
 * works in UTC whatever that default is, so no statement's days or printed times depend on it.
 */
let database: Awaited<ReturnType<typeof freshDatabase>>;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await freshDatabase({ timeZone: "Pacific/Auckland" });
  handle = await openDatabase(database.options);
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

const zoneOf = async (db: Pick<Database, "execute">) =>
  rowsOf<{ zone: string }>(await db.execute(sql`select current_setting('TimeZone') as zone`))[0].zone;

it("works in UTC on every connection, whatever the database's default time zone", async () => {
  // Several at once, so the pool opens several connections; a transaction's and the job lane's too.
  const zones = await Promise.all([
    ...Array.from({ length: 6 }, () => zoneOf(handle.db)),
    handle.db.transaction((tx) => zoneOf(tx)),
    zoneOf(handle.backgroundDb),
  ]);
  expect(zones).toEqual(zones.map(() => "UTC"));
});

it("works in UTC on the job queue's connections", async () => {
  const queue = await PgBossJobQueue.start(handle, quietLog);
  try {
    const boss = (queue as unknown as { boss: { getDb(): { executeSql(text: string): Promise<{ rows: unknown[] }> } } })
      .boss;
    const { rows } = await boss.getDb().executeSql("select current_setting('TimeZone') as zone");
    expect(rows).toEqual([{ zone: "UTC" }]);
  } finally {
    await queue.stop();
  }
});
