import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openFreshDatabase } from "../../tests/support/test-host";
import type { DatabaseHandle } from "./client";
import { autovacuumRuns, maintainTables } from "./maintenance";
import { rowsOf } from "./rows";

let handle: DatabaseHandle;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ handle, close } = await openFreshDatabase());
});
afterAll(() => close?.());

const probeActivity = async () =>
  rowsOf<{ dead: number; vacuumed: boolean; analysed: boolean; rows: number }>(
    await handle.db.execute(sql`
  select s.n_dead_tup::int as dead, s.last_vacuum is not null as vacuumed, s.last_analyze is not null as analysed, c.reltuples::int as rows
  from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = 'maintenance_probe'`),
  )[0];

it("vacuums and analyses a table past autovacuum's thresholds when no autovacuum runs, and leaves it alone once done", async () => {
  const launcher = await autovacuumRuns(handle.db);
  // Embedded PGlite never has a launcher; a PostgreSQL test server may (then its autovacuum is left to do this).
  if (handle.kind === "pglite") expect(launcher).toBe(false);

  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`create table maintenance_probe (id int primary key, n int not null)`);
    await tx.execute(sql`insert into maintenance_probe select g, 0 from generate_series(1, 3000) g`);
    await tx.execute(sql`update maintenance_probe set n = n + 1`);
    // The table's counters reach the statistics views when this transaction ends, not a second later.
    await tx.execute(sql`select pg_stat_force_next_flush()`);
  });
  expect(await probeActivity()).toMatchObject({ dead: 3000, vacuumed: false, analysed: false });

  const first = await maintainTables(handle.db);
  if (launcher) {
    expect(first).toEqual({ skipped: "the database server's autovacuum looks after its tables" });
    return;
  }
  expect(first).toMatchObject({
    vacuumed: expect.arrayContaining(["public.maintenance_probe"]),
    analyzed: expect.arrayContaining(["public.maintenance_probe"]),
  });
  expect(await probeActivity()).toMatchObject({ dead: 0, vacuumed: true, analysed: true, rows: 3000 });

  const again = await maintainTables(handle.db);
  expect(again).toMatchObject({
    vacuumed: expect.not.arrayContaining(["public.maintenance_probe"]),
    analyzed: expect.not.arrayContaining(["public.maintenance_probe"]),
  });
});
