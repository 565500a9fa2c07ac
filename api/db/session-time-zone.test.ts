import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, quietLog } from "../../tests/support/test-host";
import { PgBossJobQueue } from "../jobs/queue";
import { rowsOf } from "./rows";
import { openDatabase, RANDOM_PAGE_COST, withSessionOptions, type Database, type DatabaseHandle } from "./client";

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

/*
 * A DATABASE_URL may carry session options of its own (a hosted server's endpoint id, a statement
 * timeout, even a time zone). node-postgres then reads the URL's in place of the console's.
 */
it("puts the URL's own session options before the console's, and leaves the rest of the URL as it was", () => {
  const ours = "-c TimeZone=UTC";
  expect(withSessionOptions("postgres://u:p@db:5432/console?sslmode=require", ours)).toEqual({
    connectionString: "postgres://u:p@db:5432/console?sslmode=require",
    options: ours,
  });
  expect(
    withSessionOptions("postgres://u:p@db:5432/console?options=-c%20search_path%3Dapp&sslmode=require", ours),
  ).toEqual({
    connectionString: "postgres://u:p@db:5432/console?sslmode=require",
    options: `-c search_path=app ${ours}`,
  });
  expect(withSessionOptions("postgres://db/console?options=", ours)).toEqual({
    connectionString: "postgres://db/console",
    options: ours,
  });
  // What the URL parser cannot read goes to node-postgres untouched, which says what is wrong with it.
  expect(withSessionOptions("/var/run/postgresql console", ours)).toEqual({
    connectionString: "/var/run/postgresql console",
    options: ours,
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("with session options in DATABASE_URL", () => {
  let withOptions: DatabaseHandle;
  beforeAll(async () => {
    const url = new URL((database.options as { url: string }).url);
    url.searchParams.set("options", "-c statement_timeout=45000 -c TimeZone=Pacific/Honolulu");
    withOptions = await openDatabase({ url: url.toString() });
  });
  afterAll(async () => {
    await withOptions?.close();
  });

  const settingsOf = async (db: Pick<Database, "execute">) =>
    rowsOf<{ zone: string; timeout: string; cost: string }>(
      await db.execute(
        sql`select current_setting('TimeZone') as zone, current_setting('statement_timeout') as timeout,
          current_setting('random_page_cost') as cost`,
      ),
    )[0];

  it("works in UTC with its own planner cost, and keeps the URL's other settings", async () => {
    const settings = await Promise.all([
      ...Array.from({ length: 4 }, () => settingsOf(withOptions.db)),
      withOptions.db.transaction((tx) => settingsOf(tx)),
    ]);
    expect(settings).toEqual(settings.map(() => ({ zone: "UTC", timeout: "45s", cost: String(RANDOM_PAGE_COST) })));
  });

  it("works in UTC on the job queue's connections, with the URL's other settings", async () => {
    const queue = await PgBossJobQueue.start(withOptions, quietLog);
    try {
      const boss = (
        queue as unknown as { boss: { getDb(): { executeSql(text: string): Promise<{ rows: unknown[] }> } } }
      ).boss;
      const { rows } = await boss
        .getDb()
        .executeSql("select current_setting('TimeZone') as zone, current_setting('statement_timeout') as timeout");
      expect(rows).toEqual([{ zone: "UTC", timeout: "45s" }]);
    } finally {
      await queue.stop();
    }
  });
});
