/**
 * A refresh of the 5,000-page bench site after 1 % of its pages changed, against its first
 * indexing, on embedded PGlite and on PostgreSQL. The site is served by bench/refresh-site.ts,
 * which answers with ETag and Last-Modified and honours conditional requests. Two refreshes:
 * - the changed pages' sitemap lastmod moved (as a CMS does): pages dated before their last check
 *   are not fetched at all;
 * - no lastmod in the sitemaps: every page is asked for with its validators, a 304 costs no body.
 * Prints the time of each and the requests and bytes the site answered.
 *
 *   npx tsx bench/refresh.ts
 *   BENCH_PAGES=5000 BENCH_CHANGED=0.01 BENCH_SITE_PORT=8767 BENCH_SITE_DIR=../shared/bench-site
 *   BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres   BENCH_DATABASES=PGlite,PostgreSQL
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { and, eq, sql } from "drizzle-orm";
import { urls } from "../api/db/schema";
import { startRefreshSite, type SiteCounts } from "./refresh-site";
import { crawlAndIndex, generateBenchSite, indexEveryUrl, openedBenchDatabases, startBenchHost } from "./support";

const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const CHANGED = Number(process.env.BENCH_CHANGED ?? 0.01);
const PORT = Number(process.env.BENCH_SITE_PORT ?? 8767);
const SOURCE = path.resolve(process.env.BENCH_SITE_DIR ?? "../shared/bench-site");
if (!existsSync(path.join(SOURCE, "gen-site.mjs"))) {
  console.log(`no bench site under ${SOURCE}; set BENCH_SITE_DIR`);
  process.exit(0);
}
const PG_SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
const work = mkdtempSync(path.join(tmpdir(), "console-bench-refresh-"));

/** Waits until no database-maintenance job (sent as each indexing run ends) is waiting or running. */
async function settledMaintenance(host: Awaited<ReturnType<typeof startBenchHost>>["host"]) {
  for (;;) {
    const [{ pending }] = (
      (await host.deps.db.execute(sql`select count(*)::int as pending from pgboss.job
      where name = 'database-maintenance' and state in ('created', 'retry', 'active')`)) as unknown as {
        rows: { pending: number }[];
      }
    ).rows;
    if (!pending) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const served = (counts: SiteCounts) =>
  `${counts.requests} requests (${counts.full} whole, ${counts.notModified} not modified), ${megabytes(counts.bytes)}`;

try {
  cpSync(SOURCE, path.join(work, "site"), { recursive: true, filter: (from) => !from.includes("node_modules") });
  const pages = path.join(work, "pages");
  generateBenchSite(path.join(work, "site"), pages, PAGES, `http://127.0.0.1:${PORT}`);
  for await (const target of openedBenchDatabases(work, PG_SERVER)) {
    const { name } = target;
    const site = await startRefreshSite(pages, PORT);
    const { host, close } = await startBenchHost(target.database, work, { CRAWL_CONCURRENCY_PER_HOST: "10" });
    try {
      const first = await crawlAndIndex(host, site.base);
      const firstCounts = { ...site.counts };
      const firstSeconds = (first.indexed - first.started) / 1000;
      console.log(`${name}: first indexing ${firstSeconds.toFixed(1)} s, ${served(firstCounts)}`);
      const articles = site.articles();
      const step = Math.max(1, Math.round(1 / CHANGED));
      const refresh = async (label: string, changed: string[], moveLastmod: boolean) => {
        site.change(changed, moveLastmod);
        site.resetCounts();
        const [{ since }] = (
          (await host.deps.db.execute(sql`select now() as since`)) as unknown as { rows: { since: string }[] }
        ).rows;
        const started = performance.now();
        await indexEveryUrl(host, first.app.id, first.website.id);
        const seconds = (performance.now() - started) / 1000;
        const [{ rewritten }] = (
          (await host.deps.db.execute(sql`select count(*)::int as rewritten from urls
          where website_id = ${first.website.id} and changed_at >= ${since}::timestamptz`)) as unknown as {
            rows: { rewritten: number }[];
          }
        ).rows;
        console.log(
          `${name}: refresh, ${label}: ${seconds.toFixed(1)} s (${(firstSeconds / seconds).toFixed(1)}× faster), ${served(site.counts)} ` +
            `(${((100 * site.counts.bytes) / firstCounts.bytes).toFixed(2)} % of the first indexing's bytes); pages rewritten ${rewritten} of ${changed.length} changed`,
        );
      };
      await refresh(
        `${(CHANGED * 100).toFixed(0)} % changed, sitemap lastmod moved`,
        articles.filter((_, i) => i % step === 0),
        true,
      );
      site.dropLastmods();
      await refresh(
        `${(CHANGED * 100).toFixed(0)} % changed, no lastmod (validators only)`,
        articles.filter((_, i) => i % step === 1),
        false,
      );
      // Unchanged pages are rewritten by every refresh (checked now): without vacuuming, each left
      // its old URL rows and their index entries behind. The sizes after more refreshes say whether
      // anything still grows (api/db/maintenance.ts does autovacuum's work on PGlite).
      const urlTable = async () => {
        await settledMaintenance(host);
        const [row] = (
          (await host.deps.db.execute(sql`select pg_total_relation_size('urls') as bytes, n_dead_tup as dead
          from pg_stat_user_tables where relname = 'urls'`)) as unknown as { rows: { bytes: number; dead: number }[] }
        ).rows;
        return `${megabytes(Number(row.bytes))} (${row.dead} dead rows)`;
      };
      const sizes = [await urlTable()];
      for (let again = 0; again < 3; again++) {
        await indexEveryUrl(host, first.app.id, first.website.id);
        sizes.push(await urlTable());
      }
      console.log(`${name}: URL table after the second refresh and three more: ${sizes.join(", ")}`);
      const failed = await host.deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(urls)
        .where(and(eq(urls.websiteId, first.website.id), eq(urls.status, "failed_to_index")));
      if (failed[0].n) console.log(`${name}: ${failed[0].n} pages failed`);
    } finally {
      await close();
      await site.close();
      await target.drop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
