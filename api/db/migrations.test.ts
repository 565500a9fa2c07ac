import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunks, clientApps, urls, websites } from "./schema";
import { startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);

describe("migrations", () => {
  it("leave no statement trigger notifying every write (the page cache they fed is gone)", async () => {
    const triggers = await host.deps.db.execute(
      sql`select c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = 'console_changed'`,
    );
    expect(rowsOf(triggers)).toEqual([]);
    const functions = await host.deps.db.execute(sql`select proname from pg_proc where proname = 'console_changed'`);
    expect(rowsOf(functions)).toEqual([]);
  });

  it("keep a passage's row that fits in a page as it is, without trying to compress it", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const [site] = await db
      .insert(websites)
      .values({ appId, url: "https://probe.example.org/", status: "sitemap_generated" })
      .returning();
    const [page] = await db
      .insert(urls)
      .values({ appId, websiteId: site.id, url: "https://probe.example.org/long", status: "indexed" })
      .returning();
    // About 3 KB of text that compresses well: over the 2 KB at which Postgres would compress it, had
    // migration 0015 not aimed passages' rows at a whole page (a row read whole, no tries thrown away).
    const text = "Applications for the fall term close on January 15 every year. ".repeat(48);
    const [row] = await db.insert(chunks).values({ appId, urlId: page.id, position: 0, text }).returning();
    const stored = await db.execute(
      sql`select pg_column_compression(text) as method, pg_column_size(text) as size from chunks where id = ${row.id}`,
    );
    expect(rowsOf(stored)).toEqual([{ method: null, size: text.length + 4 }]);
  });
});
