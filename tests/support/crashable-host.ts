/**
 * A child process for the crash tests: opens the API host on a PGlite folder (or, given a
 * postgres:// address, on that database), starts indexing a few slow pages of the fixture site,
 * says "indexing" once work is in flight, and waits to be killed.
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
const [app] = await db.insert(clientApps).values({ clientName: "Crash", urlCode: "crash" }).returning();
const seeds = Array.from({ length: 8 }, (_, i) => `${siteBase}/slow?page=${i}`);
const [website] = await db
  .insert(websites)
  .values({ appId: app.id, url: `${siteBase}/`, siteMap: "few_urls", seedUrls: seeds })
  .returning();
await host.deps.jobs.send("website-discover", { websiteId: website.id });
while ((await db.select().from(websites).where(eq(websites.id, website.id)))[0].status !== "sitemap_generated") {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
await requestStatus(app.id, { websiteId: website.id }, "to_be_indexed", false, { db });
await host.deps.jobs.send("website-process", { websiteId: website.id });
for (;;) {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(urls)
    .where(eq(urls.status, "sent_for_indexing"));
  if (Number(n) > 0) break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
console.log("indexing");
await new Promise(() => {});
