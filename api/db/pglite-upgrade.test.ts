import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase } from "./client";
import { EMBEDDED_POSTGRES_MAJOR, openWithReleaseBeforeEngine, upgradeEmbeddedDataFolder } from "./pglite-upgrade";
import { tsvectorOf } from "../knowledge/words/lexemes";

const scratch = mkdtempSync(path.join(tmpdir(), "console-pglite-upgrade-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const quiet = { info: () => undefined };

/** The migrations of the release before: this release's without its last one. */
function migrationsOfTheReleaseBefore() {
  const folder = path.join(scratch, "migrations-before");
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.pop()!;
  rmSync(path.join(folder, `${last.tag}.sql`));
  writeFileSync(journalFile, JSON.stringify(journal));
  return { folder, migrations: journal.entries.length + 1 };
}

/**
 * A data folder as the release before (PostgreSQL 18) left it, with a little of everything in it and
 * more passages (10,500) than one batch of the copy moves.
 */
async function folderOfTheReleaseBefore(name: string) {
  const dir = path.join(scratch, name);
  const { folder, migrations } = migrationsOfTheReleaseBefore();
  const old = await openWithReleaseBeforeEngine(dir);
  await migrate(drizzle({ client: old }), { migrationsFolder: folder });
  await old.exec(`
    insert into client_apps (client_name, url_code) values ('Northfield', 'northfield'), ('Gone', 'gone');
    delete from client_apps where url_code = 'gone';
    insert into websites (app_id, url, site_map, status)
      select id, 'https://www.northfield.edu', 'few_urls', 'sitemap_generated' from client_apps;
    insert into urls (app_id, website_id, url, title, status)
      select w.app_id, w.id, 'https://www.northfield.edu/' || n, 'Page ' || n, case when n % 2 = 0 then 'indexed' else 'pending' end
      from websites w, generate_series(1, 30) n;`);
  await old.query(
    `insert into chunks (app_id, url_id, position, heading_path, text, tsv)
     select u.app_id, u.id, n, '["Tuition"]'::jsonb, $1, $2::tsvector
     from urls u, generate_series(0, 699) n where u.status = 'indexed'`,
    [
      "Tuition for international students is $14,200 a semester.",
      tsvectorOf("Tuition for international students is $14,200 a semester."),
    ],
  );
  const counts = async (sql: string) => (await old.query<{ n: string }>(sql)).rows[0].n;
  const before = {
    urls: await counts("select count(*)::text as n from urls"),
    chunks: await counts("select count(*)::text as n from chunks"),
    indexedCount: await counts("select coalesce(sum(n), 0)::text as n from url_status_counts where status = 'indexed'"),
    lastAppIdGiven: await counts("select last_value::text as n from client_apps_id_seq"),
  };
  await old.close();
  return { dir, before, migrations };
}

const versionOf = (dir: string) => readFileSync(path.join(dir, "PG_VERSION"), "utf8").trim();

// Each test writes a folder with two engines and copies ~10,000 passages across: 24 s alone on a
// 2-core machine, past the suite's 30 s beside other files.
describe("a data folder the release before wrote (PostgreSQL 18)", { timeout: 90_000 }, () => {
  it("opens on this release's engine with every row, count and sequence it had, the old folder kept beside it", async () => {
    const { dir, before, migrations } = await folderOfTheReleaseBefore("upgraded");
    expect(versionOf(dir)).toBe("18");
    const handle = await openDatabase({ dir });
    try {
      const one = async (query: string) =>
        ((await handle.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows[0];
      expect(await one("show server_version_num")).toEqual({
        server_version_num: expect.stringMatching(new RegExp(`^${EMBEDDED_POSTGRES_MAJOR}`)),
      });
      expect(await one("select count(*)::text as n from urls")).toEqual({ n: before.urls });
      expect(await one("select count(*)::text as n from chunks")).toEqual({ n: before.chunks });
      // The statement-level counting triggers did not count the copied rows again.
      expect(
        await one("select coalesce(sum(n), 0)::text as n from url_status_counts where status = 'indexed'"),
      ).toEqual({ n: before.indexedCount });
      // The passages' lexemes came across as they were, and search still finds them.
      expect(await one("select count(*)::text as n from chunks where tsv @@ 'intern & tuition'::tsquery")).toEqual({
        n: before.chunks,
      });
      // A new row's id follows the old ones (the deleted client's id is not given out again).
      const created = await one(
        "insert into client_apps (client_name, url_code) values ('Harbor', 'harbor') returning id::text as id",
      );
      expect(Number(created.id)).toBe(Number(before.lastAppIdGiven) + 1);
      // The release before's folder was brought to this release's migrations, and the copy has them all.
      expect(await one("select count(*)::text as n from drizzle.__drizzle_migrations")).toEqual({
        n: String(migrations),
      });
    } finally {
      await handle.close();
    }
    expect(versionOf(dir)).toBe(String(EMBEDDED_POSTGRES_MAJOR));
    expect(versionOf(`${dir}.postgres-18`)).toBe("18");
    expect(existsSync(`${dir}.upgrading`)).toBe(false);
    // Once upgraded, a start opens the folder as it is.
    expect(await upgradeEmbeddedDataFolder(dir, migrationsFolder, quiet)).toBe(false);
  });

  it("finishes an upgrade stopped between putting the old folder aside and the new one in place", async () => {
    const dir = path.join(scratch, "stopped");
    const fresh = await PGlite.create(`${dir}.upgrading`, { extensions: { pg_trgm } });
    await migrate(drizzle({ client: fresh }), { migrationsFolder });
    await fresh.exec("insert into client_apps (client_name, url_code) values ('Northfield', 'northfield')");
    await fresh.close();
    writeFileSync(path.join(`${dir}.upgrading`, "UPGRADE_COMPLETE"), "");
    expect(await upgradeEmbeddedDataFolder(dir, migrationsFolder, quiet)).toBe(true);
    expect(existsSync(path.join(dir, "UPGRADE_COMPLETE"))).toBe(false);
    const handle = await openDatabase({ dir });
    try {
      const { rows } = (await handle.db.execute("select url_code from client_apps")) as unknown as {
        rows: { url_code: string }[];
      };
      expect(rows).toEqual([{ url_code: "northfield" }]);
    } finally {
      await handle.close();
    }
  });

  it("is left as it is, with a message saying why, when a kept copy of an earlier upgrade is in the way", async () => {
    const { dir } = await folderOfTheReleaseBefore("in-the-way");
    mkdirSync(`${dir}.postgres-18`);
    await expect(upgradeEmbeddedDataFolder(dir, migrationsFolder, quiet)).rejects.toThrow(
      "a kept copy of an earlier upgrade is in its way (in-the-way.postgres-18 beside it)",
    );
    expect(versionOf(dir)).toBe("18");
    expect(existsSync(`${dir}.upgrading`)).toBe(false);
  });

  it("refuses a folder of another PostgreSQL, naming the versions it opens", async () => {
    const dir = path.join(scratch, "postgres-16");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "PG_VERSION"), "16\n");
    await expect(openDatabase({ dir })).rejects.toThrow(
      "The database folder was written by PostgreSQL 16; this release opens folders of PostgreSQL 19 and upgrades those of 18.",
    );
  });
});
