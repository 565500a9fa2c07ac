import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase, quietLog } from "../../tests/support/test-host";
import { listenForChanges, type ChangeNotices } from "./change-notices";
import { openDatabase, type DatabaseHandle } from "./client";
import { clientApps } from "./schema";

let database: Awaited<ReturnType<typeof freshDatabase>>;
let handle: DatabaseHandle;
let notices: ChangeNotices;
let heard = 0;

beforeAll(async () => {
  database = await freshDatabase();
  handle = await openDatabase(database.options);
  notices = await listenForChanges(handle, () => heard++, quietLog);
});

afterAll(async () => {
  await notices.stop();
  await handle.close();
  await database.drop();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

it("has the change trigger on every table of the console", async () => {
  const { rows } = (await handle.db.execute(sql`
    select tables.tablename as name, exists (
      select 1 from pg_trigger
      join pg_class on pg_class.oid = pg_trigger.tgrelid
      join pg_namespace on pg_namespace.oid = pg_class.relnamespace
      where pg_namespace.nspname = 'public' and pg_class.relname = tables.tablename and pg_trigger.tgname = 'console_changed'
    ) as triggered
    from pg_tables tables where tables.schemaname = 'public'`)) as unknown as { rows: { name: string; triggered: boolean }[] };
  expect(rows.length).toBeGreaterThan(10);
  expect(rows.filter((row) => !row.triggered).map((row) => row.name)).toEqual([]);
});

it("notices every statement that writes to a console table, and no read", async () => {
  await settle();
  expect(notices.live).toBe(true);
  heard = 0;
  await handle.db.select().from(clientApps);
  await settle();
  expect(heard).toBe(0);

  const [app] = await handle.db.insert(clientApps).values({ clientName: "Notices", urlCode: "notices" }).returning();
  await expect.poll(() => heard).toBeGreaterThan(0);

  heard = 0;
  await handle.db.transaction(async (tx) => {
    await tx.update(clientApps).set({ notes: "changed" }).where(eq(clientApps.id, app.id));
  });
  await expect.poll(() => heard).toBeGreaterThan(0);

  heard = 0;
  await handle.db.delete(clientApps).where(eq(clientApps.id, app.id));
  await expect.poll(() => heard).toBeGreaterThan(0);
});

it("reports no change for a transaction rolled back", async () => {
  await settle();
  heard = 0;
  await handle.db.transaction(async (tx) => {
    await tx.insert(clientApps).values({ clientName: "Never", urlCode: "never" });
    tx.rollback();
  }).catch(() => {});
  await settle();
  expect(heard).toBe(0);
});

it.skipIf(Boolean(process.env.TEST_DATABASE_URL))("hears an embedded database's notice before the statement's result", async () => {
  await settle();
  heard = 0;
  const [app] = await handle.db.insert(clientApps).values({ clientName: "At once", urlCode: "at-once" }).returning();
  expect(heard).toBeGreaterThan(0);
  heard = 0;
  await handle.db.delete(clientApps).where(eq(clientApps.id, app.id));
  expect(heard).toBeGreaterThan(0);
});
