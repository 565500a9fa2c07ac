/**
 * Pipeline throughput: a generated 5,000-page website on 127.0.0.1, discovered through its sitemap
 * and indexed end to end (fetch, extract, chunk, store) by the real jobs, on embedded PGlite.
 *   npx tsx bench/pipeline.ts            BENCH_PAGES=5000 by default
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import { apiConfigFromEnv } from "../api/config";
import { clientApps, urls, websites } from "../api/db/schema";
import { startApiHost } from "../api/host";
import { requestStatus } from "../api/knowledge/queries";

const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const words = "admissions tuition campus nursing biology research library housing scholarship advising".split(" ");
const paragraph = (i: number, n: number) => Array.from({ length: 60 }, (_, k) => words[(i * 7 + k * n) % words.length]).join(" ") + ".";

const site = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (url.pathname === "/robots.txt") return res.end("User-agent: *\nAllow: /\n");
  if (url.pathname === "/sitemap.xml") {
    res.setHeader("content-type", "application/xml");
    const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    return res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: PAGES }, (_, i) => `<url><loc>${base}/page/${i}</loc></url>`).join("")}</urlset>`);
  }
  const i = Number(url.pathname.split("/").pop());
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.end(`<!doctype html><html><head><title>Page ${i}</title></head><body><nav><a href="/">Home</a></nav><main><h1>Page ${i}</h1>${
    [1, 2, 3, 4, 5].map((n) => `<h2>Section ${n}</h2><p>${paragraph(i, n)}</p>`).join("")}</main><footer>Footer</footer></body></html>`);
});
await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

const storageDir = mkdtempSync(path.join(tmpdir(), "console-bench-pipeline-"));
const host = await startApiHost({
  database: {},
  storageDir,
  config: { ...apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true", CRAWL_CONCURRENCY_PER_HOST: "16" }, { sessionSecrets: ["x"], jwtSecret: "y" }) },
  log: { info: () => {}, warn: () => {}, error: (...a) => console.error(...a) },
});
const { db } = host.deps;
const waitFor = async (check: () => Promise<boolean>) => {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
};
try {
  const [app] = await db.insert(clientApps).values({ clientName: "Bench", urlCode: "bench" }).returning();
  const [website] = await db.insert(websites).values({ appId: app.id, url: `${base}/` }).returning();
  let started = performance.now();
  await host.deps.jobs.send("website-discover", { websiteId: website.id });
  await waitFor(async () => (await db.select().from(websites).where(eq(websites.id, website.id)))[0].status === "sitemap_generated");
  console.log(`discovery of ${PAGES} URLs: ${((performance.now() - started) / 1000).toFixed(2)} s`);

  started = performance.now();
  const rss0 = process.memoryUsage().rss;
  await requestStatus(app.id, { websiteId: website.id }, "to_be_indexed", false, { db });
  // Two jobs on one website share the work through SKIP LOCKED, as two workers would.
  await host.deps.jobs.send("website-process", { websiteId: website.id });
  await host.deps.jobs.send("website-process", { websiteId: website.id });
  await waitFor(async () => {
    const [{ left }] = await db.select({ left: sql<number>`count(*)::int` }).from(urls)
      .where(sql`${urls.websiteId} = ${website.id} and ${urls.status} <> 'indexed' and ${urls.status} not like 'failed%'`);
    return Number(left) === 0;
  });
  const seconds = (performance.now() - started) / 1000;
  const [{ indexed }] = await db.select({ indexed: sql<number>`count(*)::int` }).from(urls).where(sql`${urls.status} = 'indexed'`);
  const [{ chunkCount }] = await db.execute(sql`select count(*)::int as "chunkCount" from chunks`).then((r) => (r as unknown as { rows: { chunkCount: number }[] }).rows);
  console.log(`indexed ${indexed} pages (${chunkCount} chunks) in ${seconds.toFixed(2)} s: ${(Number(indexed) / seconds).toFixed(0)} pages/s`);
  console.log(`rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB (+${((process.memoryUsage().rss - rss0) / 1024 / 1024).toFixed(0)} MB while indexing)`);
} finally {
  await host.close();
  site.close();
  rmSync(storageDir, { recursive: true, force: true });
}
