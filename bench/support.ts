import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import pg from "pg";
import { eq, sql } from "drizzle-orm";
import type { DatabaseOptions } from "../api/db/client";
import { clientApps, websites } from "../api/db/schema";
import { apiConfigFromEnv } from "../api/config";
import { startApiHost, type ApiHost } from "../api/host";
import { requestStatus } from "../api/knowledge/crawl/request-status";
import { FIRST_STAGE_K, READ_BUDGET } from "../api/knowledge/index/ranking-constants";
import type { FirstStage } from "../api/knowledge/index/search";

/**
 * A throw-away database on the PostgreSQL server at `serverUrl`, or null when no server answers
 * there. `drop()` removes it again.
 */
export async function throwawayPostgres(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `console_bench_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * The API host a benchmark drives, on `database`, with its files under a new folder in `work`:
 * allowed to crawl 127.0.0.1, `env` over that, logging errors only. `close()` also removes the files.
 */
export async function startBenchHost(database: DatabaseOptions, work: string, env: Record<string, string> = {}) {
  const storageDir = mkdtempSync(path.join(work, "files-"));
  const host = await startApiHost({
    database,
    storageDir,
    config: apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true", ...env }, { sessionSecrets: ["x"], jwtSecret: "y" }),
    log: { info: () => {}, warn: () => {}, error: (...a) => console.error(...a) },
  });
  return {
    host,
    close: async () => {
      await host.close();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

/**
 * The API host on the PostgreSQL database at `url`, without the demo site, served over HTTP on
 * 127.0.0.1, and a System Admin's token: what the benchmarks of API calls over a large store time.
 */
export async function servedApiHost(url: string) {
  const storageDir = mkdtempSync(path.join(tmpdir(), "console-bench-api-"));
  const host = await startApiHost({
    database: { url },
    storageDir,
    config: { ...apiConfigFromEnv({}, { sessionSecrets: ["x"], jwtSecret: "y" }), demoSiteUrl: null },
    log: { info: () => {}, warn: () => {}, error: (...a) => console.error(...a) },
  });
  const server = serve({ fetch: host.api.fetch, port: 0, hostname: "127.0.0.1" });
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signedIn = await fetch(`${base}/auth/dev`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: host.deps.config.adminEmail }),
  });
  const { user_token: token } = (await signedIn.json()) as { user_token: string };
  return {
    host,
    base,
    token,
    close: async () => {
      server.close();
      await host.close();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

/** p50 and p95 of timings in ms, as printed figures. */
export function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
  return { p50: at(50), p95: at(95) };
}

/**
 * The databases a benchmark runs on, each from empty tables: PGlite in a new folder under `work`
 * (as the console keeps it, server.ts: not in memory, where each file's growth is a copy of it), or
 * a throw-away database on the PostgreSQL server at `pgServer` (null when none answers).
 */
export function benchDatabases(
  work: string,
  pgServer: string,
): { name: string; open: () => Promise<{ database: DatabaseOptions; drop: () => Promise<void> } | null> }[] {
  return [
    {
      name: "PGlite",
      open: async () => {
        const dir = mkdtempSync(path.join(work, "pglite-"));
        return { database: { dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
      },
    },
    {
      name: "PostgreSQL",
      open: async () => {
        const postgres = await throwawayPostgres(pgServer);
        return postgres && { database: { url: postgres.url }, drop: postgres.drop };
      },
    },
  ];
}

/** The databases `BENCH_DATABASES` names (a comma-separated list; both by default). */
export function chosenBenchDatabases(work: string, pgServer: string) {
  const only = process.env.BENCH_DATABASES?.split(",");
  return benchDatabases(work, pgServer).filter((d) => !only || only.includes(d.name));
}

/**
 * Opens each chosen database in turn, from empty tables, saying which has no server to answer.
 * The caller drops each one (`drop`) when done with it.
 */
export async function* openedBenchDatabases(work: string, pgServer: string) {
  for (const { name, open } of chosenBenchDatabases(work, pgServer)) {
    const opened = await open();
    if (!opened) {
      console.log(`${name}: no server answers at ${pgServer}; skipped`);
      continue;
    }
    yield { name, ...opened };
  }
}

/** Writes `pages` pages of the bench site (its `gen-site.mjs` in `siteDir`) under `out`, linked from `base`. */
export function generateBenchSite(siteDir: string, out: string, pages: number, base: string) {
  execFileSync(process.execPath, ["gen-site.mjs", "--pages", String(pages), "--out", out, "--base", base], {
    cwd: siteDir,
    stdio: "inherit",
  });
}

/** Serves the pages under `root` with the bench site's `serve-site.mjs` on 127.0.0.1:`port`, once it listens. */
export async function serveBenchSite(siteDir: string, root: string, port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, ["serve-site.mjs", "--root", root, "--port", String(port)], {
    cwd: siteDir,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) =>
    server.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve()),
  );
  return server;
}

/**
 * The whole pipeline over the site at `base` for a new client: discovery through its sitemaps,
 * then every page indexed by two jobs sharing the work (through SKIP LOCKED, as two workers
 * would). Answers the client, its website and when discovery and indexing ended (performance.now).
 * Each check is a query on the database the pipeline is busy with (on PGlite, its only thread): it
 * reads one website row, or stops at the first URL still in work, so checking every 50 ms costs the
 * run little and each phase's end is seen within 50 ms (a count of the URLs left, every 50 ms, took
 * 3% of a PGlite run; every 200 ms it hid up to 0.2 s in each phase).
 */
export async function crawlAndIndex(host: ApiHost, base: string) {
  const { db } = host.deps;
  const waitFor = async (check: () => Promise<boolean>) => {
    while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const [app] = await db
    .insert(clientApps)
    .values({ clientName: "Bench", urlCode: `bench${Date.now()}` })
    .returning();
  const [website] = await db
    .insert(websites)
    .values({ appId: app.id, url: `${base}/` })
    .returning();
  const started = performance.now();
  await host.deps.jobs.send("website-discover", { websiteId: website.id });
  await waitFor(
    async () => (await db.select().from(websites).where(eq(websites.id, website.id)))[0].status === "sitemap_generated",
  );
  const discovered = performance.now();
  await indexEveryUrl(host, app.id, website.id);
  return { app, website, started, discovered, indexed: performance.now() };
}

/**
 * Requests every URL of the website to be indexed (a refresh, once they all are) and waits until
 * two jobs sharing the work have done them all. Checked every 50 ms, as crawlAndIndex explains.
 */
export async function indexEveryUrl(host: ApiHost, appId: number, websiteId: number) {
  const { db } = host.deps;
  await requestStatus(appId, { websiteId }, "to_be_indexed", false, { db });
  await host.deps.jobs.send("website-process", { websiteId });
  await host.deps.jobs.send("website-process", { websiteId });
  for (;;) {
    // Every URL was requested to be indexed: the ones still in work are waiting or being indexed.
    const [{ working }] = await db
      .select({
        working: sql<boolean>`exists (select 1 from urls where urls.app_id = ${appId} and urls.website_id = ${websiteId} and urls.status in ('to_be_indexed', 'sent_for_indexing'))`,
      })
      .from(sql`(select 1) as once`);
    if (!working) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * How retrieval's first stage (plain BM25, api/knowledge/index/search.ts) went over some questions:
 * how often its best passages, and its first, are plain BM25's own (the read budget stops it
 * otherwise), and how many passages it read.
 */
export function firstStageSummary(stages: (FirstStage | undefined)[]) {
  const ran = stages.filter((stage): stage is FirstStage => !!stage);
  const reads = ran.map((stage) => stage.read).sort((a, b) => a - b);
  const count = (test: (stage: FirstStage) => boolean) => ran.filter(test).length;
  return (
    `first stage over ${ran.length} questions: best ${FIRST_STAGE_K} exact for ${count((s) => s.exact)}, ` +
    `first passage exact for ${count((s) => s.firstExact)} (the read budget of ${READ_BUDGET} passages stopped the others); ` +
    `passages read p50 ${reads[Math.floor(reads.length / 2)] ?? 0}, max ${reads[reads.length - 1] ?? 0}`
  );
}
