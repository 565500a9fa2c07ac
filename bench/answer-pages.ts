/**
 * What the answer benchmarks share: the real pages they index (the shared fixtures' saved web pages
 * and PDFs, and the demo university site), a page server on 127.0.0.1, the API host on a throw-away
 * embedded database, indexing through the real pipeline jobs, and a question asked through
 * POST /v1/chat the way the widget asks it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { serve } from "@hono/node-server";
import { and, eq, sql } from "drizzle-orm";
import type { ChatEvent, ChatOutcome, ChatSource } from "@contract";
import { apiConfigFromEnv } from "../api/config";
import { embedKeyFor } from "../api/chat/keys";
import { clientApps, urls, websites } from "../api/db/schema";
import { startApiHost } from "../api/host";
import { requestStatus } from "../api/knowledge/crawl/request-status";

/** A page the page server answers: a file on disk, or a body made by the benchmark. */
export interface ServedPage {
  type: string;
  file?: string;
  body?: string;
}

export const HTML = "text/html; charset=utf-8";

/** The pages bench/answers.ts indexes, by the path the page server answers each on. */
export function benchPages(fixtures: string, demoSite = path.resolve("public/demo-site")): Map<string, ServedPage> {
  const pages = new Map<string, ServedPage>();
  for (const set of ["real-pages", "real-pages-dev"]) {
    if (!existsSync(path.join(fixtures, set))) continue;
    for (const name of readdirSync(path.join(fixtures, set))) {
      const file = path.join(fixtures, set, name, "source.html");
      if (existsSync(file)) pages.set(`${set}/${name}`, { file, type: HTML });
    }
  }
  if (existsSync(path.join(fixtures, "pdfs"))) {
    for (const name of readdirSync(path.join(fixtures, "pdfs")))
      pages.set(`pdfs/${name}`, { file: path.join(fixtures, "pdfs", name), type: "application/pdf" });
  }
  for (const name of [
    "index.html",
    "admissions.html",
    "campus-life.html",
    "contact.html",
    "programs/index.html",
    "tuition.html",
  ]) {
    pages.set(`demo-site/${name}`, { file: path.join(demoSite, name), type: HTML });
  }
  return pages;
}

/** Serves `pages` on 127.0.0.1; `pageUrl` is the address a page is indexed under. */
export async function servePages(pages: Map<string, ServedPage>) {
  const site = createServer((req, res) => {
    const page = pages.get(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname).replace(/^\/|\/$/g, ""));
    if (!page) {
      res.statusCode = 404;
      return res.end("not found");
    }
    res.setHeader("content-type", page.type);
    res.end(page.body ?? readFileSync(page.file!));
  });
  // A busy machine is slow to reuse connections; a short keep-alive would reset them mid-crawl.
  site.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => site.listen(Number(process.env.BENCH_SITE_PORT ?? 0), "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // Directory-like names get a trailing slash, as a site links its sections.
  const pageUrl = (page: string) =>
    `${base}/${page.split("/").map(encodeURIComponent).join("/")}${page.includes(".") ? "" : "/"}`;
  return { base, pageUrl, close: () => site.close() };
}

/**
 * The API host on a throw-away embedded database, allowed to crawl 127.0.0.1 and with the chat
 * rate limit out of the way (a benchmark asks far more than a visitor may).
 */
export async function startBenchApi(name: string) {
  const storageDir = mkdtempSync(path.join(tmpdir(), `console-bench-${name}-`));
  const host = await startApiHost({
    database: {},
    storageDir,
    config: {
      ...apiConfigFromEnv(
        { CRAWL_ALLOW_PRIVATE: "true", CRAWL_CONCURRENCY_PER_HOST: "4", CHAT_RATE_LIMIT_PER_MINUTE: "1000000" },
        { sessionSecrets: ["x"], jwtSecret: "y" },
      ),
    },
    log: { info: () => {}, warn: () => {}, error: (...a) => console.error(...a) },
  });
  const api = serve({ fetch: host.api.fetch, port: Number(process.env.BENCH_API_PORT ?? 0), hostname: "127.0.0.1" });
  if (!api.listening) await new Promise((resolve) => api.once("listening", resolve));
  return {
    host,
    apiBase: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
    close: async () => {
      api.close();
      await host.close();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

type Host = Awaited<ReturnType<typeof startBenchApi>>["host"];

/**
 * Makes a client whose website lists `pageUrls`, runs the pipeline over them and waits until every
 * page is indexed or failed. `readable` holds the pages that gave at least one passage.
 */
export async function indexPages(host: Host, siteBase: string, pageUrls: string[], clientName: string) {
  const { db } = host.deps;
  const [app] = await db
    .insert(clientApps)
    .values({ clientName, urlCode: clientName.toLowerCase().replace(/\W+/g, "-"), clientType: "higher_ed" })
    .returning();
  const [website] = await db
    .insert(websites)
    .values({ appId: app.id, url: `${siteBase}/`, siteMap: "few_urls", status: "sitemap_generated" })
    .returning();
  await db.insert(urls).values(pageUrls.map((url) => ({ appId: app.id, websiteId: website.id, url })));
  const started = performance.now();
  await requestStatus(app.id, { websiteId: website.id }, "to_be_indexed", false, { db });
  await host.deps.jobs.send("website-process", { websiteId: website.id });
  await host.deps.jobs.send("website-process", { websiteId: website.id });
  for (;;) {
    const [{ left }] = await db
      .select({ left: sql<number>`count(*)::int` })
      .from(urls)
      .where(
        and(eq(urls.websiteId, website.id), sql`${urls.status} <> 'indexed' and ${urls.status} not like 'failed%'`),
      );
    if (Number(left) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const statuses = await db
    .select({ url: urls.url, status: urls.status, metadata: urls.metadata })
    .from(urls)
    .where(eq(urls.websiteId, website.id));
  const failed = statuses.filter((s) => s.status !== "indexed");
  await db.execute(sql`analyze chunks`);
  const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
  const [{ chunkCount }] = rows<{ chunkCount: number }>(
    await db.execute(sql`select count(*)::int as "chunkCount" from chunks where app_id = ${app.id}`),
  );
  const readable = new Set(
    rows<{ url: string }>(
      await db.execute(
        sql`select distinct u.url from urls u join chunks c on c.url_id = u.id where u.website_id = ${website.id}`,
      ),
    ).map((row) => row.url),
  );
  const key = await embedKeyFor(app.id, "stage", host.deps);
  return {
    appId: app.id,
    websiteId: website.id,
    key,
    seconds,
    pageCount: statuses.length,
    failed,
    chunkCount,
    readable,
  };
}

export interface Asked {
  text: string;
  outcome: ChatOutcome | "error";
  sources: ChatSource[];
  ms: number;
  conversationId: string | null;
}

/** One question through POST /v1/chat with an embed key (in a conversation, when one is named), read to the end of its stream. */
export async function askChat(
  apiBase: string,
  key: string,
  message: string,
  conversationId?: string | null,
): Promise<Asked> {
  const begun = performance.now();
  const body = { key, message, ...(conversationId ? { conversation_id: conversationId } : {}) };
  const response = await fetch(`${apiBase}/v1/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const events = (await response.text())
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ChatEvent);
  const done = events.find((e) => e.type === "done");
  const start = events.find((e) => e.type === "start");
  return {
    conversationId: start?.type === "start" ? start.conversation_id : null,
    text: events
      .map((e) => (e.type === "delta" ? e.text : ""))
      .join("")
      .trim(),
    outcome: done?.outcome ?? "error",
    sources: done?.sources ?? [],
    ms: performance.now() - begun,
  };
}

/** Runs `work` over `items`, `width` at a time, and gives the results in the items' order. */
export async function inPool<T, R>(
  items: T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0;
};
export const share = (count: number, total: number) => `${((100 * count) / Math.max(total, 1)).toFixed(1)}%`;
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
