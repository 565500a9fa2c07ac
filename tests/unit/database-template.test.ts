import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { migrationsFolder, openDatabase } from "../../api/db/client";
import { queueNames } from "../../api/jobs/payloads";
import { writeDatabaseTemplate } from "../support/database-template";

const dir = mkdtempSync(path.join(tmpdir(), "console-template-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const tableExists = async (db: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> }, name: string) =>
  rowsOf<{ found: string | null }>(await db.execute(sql`select to_regclass(${name})::text as found`))[0].found !== null;

it("writes a template with every migration applied", async () => {
  // The run's own template (tests/support/global-setup.ts) when there is one: the same function
  // wrote it, and writing another would cost this file a PGlite cluster's start-up.
  const runTemplate = process.env.TEST_DATABASE_TEMPLATE;
  const file = runTemplate ?? path.join(dir, "migrated.tar");
  if (!runTemplate) await writeDatabaseTemplate(file);
  const handle = await openDatabase({ from: file });
  try {
    const applied = rowsOf<{ count: number }>(
      await handle.db.execute(sql`select count(*)::int as count from drizzle.__drizzle_migrations`),
    );
    const migrations = readdirSync(migrationsFolder).filter((name) => name.endsWith(".sql"));
    expect(applied[0].count).toBe(migrations.length);
    // And the job queue's queues, so that a test host's queue starts without making them.
    const queues = rowsOf<{ name: string }>(await handle.db.execute(sql`select name from pgboss.queue`));
    expect(queues.map((queue) => queue.name)).toEqual(expect.arrayContaining([...queueNames]));
  } finally {
    await handle.close();
  }
});

it("starts an in-memory database from a copy of the file, which its writes leave as it was", async () => {
  // Any cluster will do; a copy of the run's template starts faster than a new one.
  const template = process.env.TEST_DATABASE_TEMPLATE;
  const source = new PGlite(
    template ? { loadDataDir: new Blob([readFileSync(template)]), extensions: { pg_trgm } } : undefined,
  );
  await source.exec("create table from_the_template (n int)");
  const file = path.join(dir, "marked.tar");
  const dumpSource = async () =>
    writeFileSync(file, Buffer.from(await (await source.dumpDataDir("none")).arrayBuffer()));
  await dumpSource();

  const first = await openDatabase({ from: file });
  expect(await tableExists(first.db, "from_the_template")).toBe(true);
  await first.db.execute(sql`create table written_later (n int)`);
  await first.close();

  const second = await openDatabase({ from: file });
  expect(await tableExists(second.db, "written_later")).toBe(false);
  await second.close();

  // The database's thread keeps the bytes it read, but not past a new version of the file.
  await source.exec("create table in_the_next_dump (n int)");
  await dumpSource();
  await source.close();
  const third = await openDatabase({ from: file });
  expect(await tableExists(third.db, "in_the_next_dump")).toBe(true);
  await third.close();
});
