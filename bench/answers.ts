/**
 * Answer quality through the widget's own endpoint: real pages (the shared fixtures' saved web
 * pages and PDFs, and the demo university site) are served on 127.0.0.1, indexed by the real
 * pipeline jobs, and the question set of bench/answer-questions.ts is asked through POST /v1/chat.
 * Prints the share of answers holding the expected text, the median answer length in words, the
 * share whose first source is the right page, the fallback share and the chat latency.
 *   npx tsx bench/answers.ts
 *   FIXTURES_DIR=../shared/fixtures    where the shared fixtures are (the default; skipped when absent)
 *   BENCH_FILLER_CHUNKS=50000          also store this many generated passages (bench/chat.ts' kind) beside the pages
 *   BENCH_VERBOSE=1                    print every question that missed, with its answer
 *   BENCH_ONLY=regex                   ask only the questions matching it (figures then cover those only)
 *   BENCH_SITE_PORT, BENCH_API_PORT    ports of the page server and the API (any free port by default)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { serve } from "@hono/node-server";
import { and, eq, sql } from "drizzle-orm";
import { apiConfigFromEnv } from "../api/config";
import { embedKeyFor } from "../api/chat/keys";
import { clientApps, urls, websites } from "../api/db/schema";
import { startApiHost } from "../api/host";
import { requestStatus } from "../api/knowledge/queries";
import { retrieve } from "../api/knowledge/search";
import { QUESTIONS } from "./answer-questions";
import { percentiles } from "./support";

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
const DEMO_SITE = path.resolve("public/demo-site");
const FILLER_CHUNKS = Number(process.env.BENCH_FILLER_CHUNKS ?? 0);
const VERBOSE = process.env.BENCH_VERBOSE === "1";
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, "i") : null;
const ASKED = QUESTIONS.filter((item) => !ONLY || ONLY.test(item.question));

if (!existsSync(path.join(FIXTURES, "real-pages"))) {
  console.log(`answers: skipped, no shared fixtures at ${FIXTURES} (set FIXTURES_DIR)`);
  process.exit(0);
}

/** Every page the benchmark indexes, by the path the page server answers it on. */
function benchPages(): Map<string, { file: string; type: string }> {
  const pages = new Map<string, { file: string; type: string }>();
  for (const set of ["real-pages", "real-pages-dev"]) {
    for (const name of readdirSync(path.join(FIXTURES, set))) {
      const file = path.join(FIXTURES, set, name, "source.html");
      if (existsSync(file)) pages.set(`${set}/${name}`, { file, type: "text/html; charset=utf-8" });
    }
  }
  for (const name of readdirSync(path.join(FIXTURES, "pdfs"))) pages.set(`pdfs/${name}`, { file: path.join(FIXTURES, "pdfs", name), type: "application/pdf" });
  for (const name of ["index.html", "admissions.html", "tuition.html", "campus-life.html", "contact.html", "programs/index.html"]) {
    pages.set(`demo-site/${name}`, { file: path.join(DEMO_SITE, name), type: "text/html; charset=utf-8" });
  }
  return pages;
}

const pages = benchPages();
const site = createServer((req, res) => {
  const page = pages.get(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname).replace(/^\/|\/$/g, ""));
  if (!page) {
    res.statusCode = 404;
    return res.end("not found");
  }
  res.setHeader("content-type", page.type);
  res.end(readFileSync(page.file));
});
// A busy machine is slow to reuse connections; a short keep-alive would reset them mid-crawl.
site.keepAliveTimeout = 30_000;
await new Promise<void>((resolve) => site.listen(Number(process.env.BENCH_SITE_PORT ?? 0), "127.0.0.1", resolve));
const siteBase = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const pageUrl = (page: string) => `${siteBase}/${page}${page.includes(".") ? "" : "/"}`;

const storageDir = mkdtempSync(path.join(tmpdir(), "console-bench-answers-"));
const host = await startApiHost({
  database: {},
  storageDir,
  config: { ...apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true", CRAWL_CONCURRENCY_PER_HOST: "4", CHAT_RATE_LIMIT_PER_MINUTE: "1000000" }, { sessionSecrets: ["x"], jwtSecret: "y" }) },
  log: { info: () => {}, warn: () => {}, error: (...a) => console.error(...a) },
});
const api = serve({ fetch: host.api.fetch, port: Number(process.env.BENCH_API_PORT ?? 0), hostname: "127.0.0.1" });
if (!api.listening) await new Promise((resolve) => api.once("listening", resolve));
const apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
const { db } = host.deps;

/** Lower case, straight quotes, one kind of dash and single spaces: how expected texts are compared. */
const normalised = (text: string) => text.toLowerCase().replace(/[‘’´`]/g, "'").replace(/[“”]/g, '"').replace(/[‐-―−]/g, "-").replace(/\s+/g, " ");
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0;
};
const share = (count: number, total: number) => `${((100 * count) / Math.max(total, 1)).toFixed(1)}%`;

/** Generated passages about a made-up university, as bench/chat.ts stores them: distractors at scale. */
async function storeFiller(appId: number, websiteId: number, count: number) {
  const pageCount = Math.ceil(count / 10);
  await db.execute(sql.raw(`
    insert into urls (app_id, website_id, url, title, status)
    select ${appId}, ${websiteId}, 'https://www.filler.example/page-' || i, 'Page ' || i, 'indexed' from generate_series(1, ${pageCount}) as i`));
  const subjects = "nursing biology history physics finance music law design chemistry economics".split(" ").map((s) => `'${s}'`).join(",");
  const topics = "tuition deadline scholarship housing advising internship laboratory library semester credits".split(" ").map((t) => `'${t}'`).join(",");
  await db.execute(sql.raw(`
    insert into chunks (app_id, url_id, position, heading_path, text)
    select u.app_id, u.id, p, '[]'::jsonb,
      'The ' || (array[${subjects}])[1 + (u.id + p) % 10] || ' program covers ' || (array[${topics}])[1 + (u.id * 3 + p) % 10] || ' and ' ||
      (array[${topics}])[1 + (u.id * 7 + p) % 10] || ' for students in year ' || (1 + p % 4) ||
      '. Details change every semester; contact the office of ' || (array[${subjects}])[1 + u.id % 10] || ' for more.'
    from urls u, generate_series(0, 9) as p where u.app_id = ${appId} and u.url like 'https://www.filler.example/%'`));
}

interface Asked { text: string; outcome: string; sources: { title: string; url: string }[]; ms: number }

try {
  const [app] = await db.insert(clientApps).values({ clientName: "Answer bench", urlCode: "answer-bench", clientType: "higher_ed" }).returning();
  const [website] = await db.insert(websites).values({ appId: app.id, url: `${siteBase}/`, siteMap: "few_urls", status: "sitemap_generated" }).returning();
  await db.insert(urls).values([...pages.keys()].map((page) => ({ appId: app.id, websiteId: website.id, url: pageUrl(page) })));
  const started = performance.now();
  await requestStatus(app.id, { websiteId: website.id }, "to_be_indexed", false, { db });
  await host.deps.jobs.send("website-process", { websiteId: website.id });
  await host.deps.jobs.send("website-process", { websiteId: website.id });
  for (;;) {
    const [{ left }] = await db.select({ left: sql<number>`count(*)::int` }).from(urls)
      .where(and(eq(urls.websiteId, website.id), sql`${urls.status} <> 'indexed' and ${urls.status} not like 'failed%'`));
    if (Number(left) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const statuses = await db.select({ url: urls.url, status: urls.status, metadata: urls.metadata }).from(urls).where(eq(urls.websiteId, website.id));
  const failed = statuses.filter((s) => s.status !== "indexed");
  if (FILLER_CHUNKS > 0) await storeFiller(app.id, website.id, FILLER_CHUNKS);
  await db.execute(sql`analyze chunks`);
  const [{ chunkCount }] = await db.execute(sql`select count(*)::int as "chunkCount" from chunks where app_id = ${app.id}`)
    .then((r) => (r as unknown as { rows: { chunkCount: number }[] }).rows);
  console.log(`indexed ${statuses.length - failed.length} of ${statuses.length} pages through the pipeline in ${((performance.now() - started) / 1000).toFixed(1)} s; ${chunkCount} chunks${FILLER_CHUNKS ? ` (${FILLER_CHUNKS} generated)` : ""}`);
  for (const page of failed) console.log(`  not indexed: ${page.url.replace(siteBase, "")} (${page.metadata.error_message ?? page.status})`);

  // Pages indexed without any text (the extraction found no main content) cannot be answered from;
  // the figures are also printed without their questions, to tell retrieval from extraction.
  const readable = new Set((await db.execute(sql`select distinct u.url from urls u join chunks c on c.url_id = u.id where u.website_id = ${website.id}`)
    .then((r) => (r as unknown as { rows: { url: string }[] }).rows)).map((row) => row.url));
  const unreadable = [...pages.keys()].filter((page) => !readable.has(pageUrl(page)));
  if (unreadable.length) console.log(`  indexed without text: ${unreadable.join(", ")}`);

  const key = await embedKeyFor(app.id, "stage", host.deps);
  const ask = async (message: string): Promise<Asked> => {
    const begun = performance.now();
    const response = await fetch(`${apiBase}/v1/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key, message }) });
    const events = (await response.text()).split("\n").filter(Boolean).map((line) => JSON.parse(line) as { type: string; text?: string; outcome?: string; sources?: Asked["sources"] });
    const done = events.find((e) => e.type === "done");
    return { text: events.filter((e) => e.type === "delta").map((e) => e.text).join("").trim(), outcome: done?.outcome ?? "error", sources: done?.sources ?? [], ms: performance.now() - begun };
  };
  for (const { question } of ASKED.slice(0, 5)) await ask(question); // warm-up

  let contained = 0;
  let firstRight = 0;
  let fallbacks = 0;
  const onReadable = { asked: 0, contained: 0, firstRight: 0 };
  const words: number[] = [];
  const timings: number[] = [];
  for (const item of ASKED) {
    const answer = await ask(item.question);
    timings.push(answer.ms);
    const holds = item.answers.some((expected) => normalised(answer.text).includes(normalised(expected)));
    const rightSource = answer.sources[0]?.url.replace(/\/$/, "") === pageUrl(item.page).replace(/\/$/, "");
    if (holds) contained++;
    if (rightSource) firstRight++;
    if (answer.outcome === "fallback") fallbacks++;
    if (readable.has(pageUrl(item.page))) {
      onReadable.asked++;
      if (holds) onReadable.contained++;
      if (rightSource) onReadable.firstRight++;
    }
    if (answer.outcome !== "fallback") words.push(answer.text.split(/\s+/).filter(Boolean).length);
    if (process.env.BENCH_DEBUG === "1") {
      const { hits } = await retrieve({ appId: app.id, query: item.question, limit: 8 }, host.deps);
      for (const hit of hits) console.log(`      ${hit.baseScore.toFixed(2)} ${hit.bm25.toFixed(2)} ${hit.url?.replace(siteBase, "")} ${hit.text.slice(0, 100)}`);
    }
    if (VERBOSE && (!holds || !rightSource)) {
      console.log(`\n${holds ? "  " : "✗ "}${rightSource ? "  " : "✗src "}${item.question}  [${item.answers[0]}; ${item.page}]`);
      console.log(`    ${answer.text.replace(/\s+/g, " ")}`);
      console.log(`    first source: ${answer.sources[0]?.url.replace(siteBase, "") ?? "none"}`);
    }
  }
  const { p50, p95 } = percentiles(timings);
  const total = ASKED.length;
  console.log(`answers to ${total} questions over ${chunkCount} chunks (extractive, embedded PGlite):`);
  console.log(`  containing the expected answer   ${share(contained, total)}   (target ≥ 90%)`);
  console.log(`  median answer length             ${median(words)} words   (answered questions; target ≤ 35)`);
  console.log(`  first source is the right page   ${share(firstRight, total)}   (target ≥ 97%)`);
  console.log(`  fallback message                 ${share(fallbacks, total)}`);
  console.log(`  chat p50 ${p50} ms  p95 ${p95} ms`);
  if (onReadable.asked < total) {
    console.log(`  on the ${onReadable.asked} questions whose page has text: containing ${share(onReadable.contained, onReadable.asked)}, first source right ${share(onReadable.firstRight, onReadable.asked)}`);
  }
} finally {
  api.close();
  await host.close();
  site.close();
  rmSync(storageDir, { recursive: true, force: true });
}
