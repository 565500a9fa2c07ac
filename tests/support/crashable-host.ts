/**
 * A child process for the crash tests: opens the API host on a PGlite folder (or, given a
 * postgres:// address, on that database), starts indexing a few slow pages of the fixture site
 * (again, a refresh, when an earlier run left them there), says "indexing" once work is in flight
 * and `CRASH_AFTER_PAGES` pages (default 0) of this run are written, and waits to be killed.
 *   tsx tests/support/crashable-host.ts <dataDir | postgres://…> <siteBase>
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { apiConfigFromEnv } from "../../api/config";
import { clientApps, urls, websites } from "../../api/db/schema";
import { startApiHost } from "../../api/host";
import { requestStatus } from "../../api/knowledge/crawl/request-status";

const [where, siteBase] = process.argv.slice(2);
const onPostgres = where.startsWith("postgres");
const host = await startApiHost({
  database: onPostgres ? { url: where } : { dir: path.join(where, "pglite") },
  storageDir: path.join(onPostgres ? mkdtempSync(path.join(tmpdir(), "console-crash-")) : where, "files"),
  config: apiConfigFromEnv(
    {
      CRAWL_ALLOW_PRIVATE: "true",
      CRAWL_CONCURRENCY_PER_HOST: "2",
      CRAWL_TIMEOUT_MS: "10000",
      WORKER_LEASE_SECONDS: process.env.WORKER_LEASE_SECONDS,
    },
    { sessionSecrets: ["s"], jwtSecret: "j" },
  ),
  seed: false,
  log: { info: () => {}, warn: () => {}, error: () => {} },
});
const { db } = host.deps;
const [earlier] = await db
  .select()
  .from(websites)
  .where(eq(websites.url, `${siteBase}/`));
const website = earlier ?? (await createWebsite());
async function createWebsite() {
  const [app] = await db.insert(clientApps).values({ clientName: "Crash", urlCode: "crash" }).returning();
  const seeds = Array.from({ length: 8 }, (_, i) => `${siteBase}/slow?page=${i}`);
  const [created] = await db
    .insert(websites)
    .values({ appId: app.id, url: `${siteBase}/`, siteMap: "few_urls", seedUrls: seeds })
    .returning();
  await host.deps.jobs.send("website-discover", { websiteId: created.id });
  while ((await db.select().from(websites).where(eq(websites.id, created.id)))[0].status !== "sitemap_generated") {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return created;
}
const afterPages = Number(process.env.CRASH_AFTER_PAGES ?? 0);
const { rows: now } = (await db.execute(sql`select now()::text as at`)) as unknown as { rows: { at: string }[] };
const runStarted = now[0].at;
await requestStatus(website.appId, { websiteId: website.id }, "to_be_indexed", false, { db });
await host.deps.jobs.send("website-process", { websiteId: website.id });
for (;;) {
  const [{ inFlight, written }] = await db
    .select({
      inFlight: sql<number>`count(*) filter (where ${urls.status} = 'sent_for_indexing')::int`,
      written: sql<number>`count(*) filter (where ${urls.status} = 'indexed' and ${urls.checkedAt} >= ${runStarted}::timestamptz)::int`,
    })
    .from(urls)
    .where(eq(urls.websiteId, website.id));
  if (Number(inFlight) > 0 && Number(written) >= afterPages) break;
  const [{ left }] = await db
    .select({ left: sql<number>`count(*) filter (where ${urls.status} <> 'indexed')::int` })
    .from(urls)
    .where(eq(urls.websiteId, website.id));
  if (Number(left) === 0) {
    // Say so at once rather than wait forever for a moment that has passed.
    console.error(`every page was indexed before ${afterPages} were written with others in flight`);
    process.exit(3);
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}
console.log("indexing");
await new Promise(() => {});
