/**
 * Pipeline throughput against Crawlee's CheerioCrawler, alternately, on the same generated site
 * (`../shared/bench-site`: 5,000 article pages of ~24 KB behind robots.txt and sitemaps, served
 * from memory on 127.0.0.1 by its own process). Our side is the whole pipeline through the real
 * jobs: discovery, fetch, extraction (Readability on the worker pool), chunking and storing, on
 * embedded PGlite and on PostgreSQL. Crawlee fetches, parses and takes the <main> text only.
 * Prints pages/s of each run (with the process's CPU a page) and the ratio of the medians; these
 * machines are noisy, so the ratio within one run is the figure, not the absolute rates.
 *
 *   npx tsx bench/pipeline.ts
 *   BENCH_PAGES=5000 BENCH_ROUNDS=2 BENCH_SITE_PORT=8765 BENCH_SITE_DIR=../shared/bench-site
 *   BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres (PostgreSQL is skipped when none answers)
 *   BENCH_DATABASES=PGlite,PostgreSQL (the default: both)
 *   BENCH_CRAWLEE_DIR=a copy of the bench site with its packages installed (else one is made here)
 *   BENCH_CRAWLEE=0 (our side alone: to compare two versions of the pipeline by CPU a page)
 *
 * On PostgreSQL served from this machine, the server's CPU a page is printed too (its processes'
 * time in /proc), so that the whole cost of a page is seen: the pipeline is bound by the two cores.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { apiConfigFromEnv } from "../api/config";
import type { DatabaseOptions } from "../api/db/client";
import { urls } from "../api/db/schema";
import { startApiHost } from "../api/host";
import { chosenBenchDatabases, crawlAndIndex, generateBenchSite, serveBenchSite } from "./support";

const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PORT = Number(process.env.BENCH_SITE_PORT ?? 8765);
const CONCURRENCY = 10;
const SOURCE = path.resolve(process.env.BENCH_SITE_DIR ?? "../shared/bench-site");
if (!existsSync(path.join(SOURCE, "crawlee-baseline.mjs"))) {
  console.log(`no bench site under ${SOURCE}; set BENCH_SITE_DIR`);
  process.exit(0);
}

const work = mkdtempSync(path.join(tmpdir(), "console-bench-crawl-"));
const siteDir = process.env.BENCH_CRAWLEE_DIR ? path.resolve(process.env.BENCH_CRAWLEE_DIR) : path.join(work, "site");
const PG_SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
const base = `http://127.0.0.1:${PORT}`;
const node = (args: string[], cwd: string) =>
  spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
const lines = (child: ChildProcess) =>
  new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out.slice(-500)}`))));
  });

/** Crawlee in its own process, as its README runs it; answers its pages/s. */
async function crawlee() {
  const out = await lines(
    node(["crawlee-baseline.mjs", "--base", base, "--concurrency", String(CONCURRENCY), "--mode", "fixed"], siteDir),
  );
  const match = /crawlee pages_per_s=([\d.]+) pages=(\d+)/.exec(out);
  if (!match) throw new Error(`no result from Crawlee: ${out.slice(-300)}`);
  return { pagesPerSecond: Number(match[1]), pages: Number(match[2]) };
}

/** The whole pipeline on a fresh database: discovery through the sitemaps, then every page indexed. */
async function pipeline(database: DatabaseOptions) {
  const storageDir = mkdtempSync(path.join(work, "files-"));
  const host = await startApiHost({
    database,
    storageDir,
    config: apiConfigFromEnv(
      { CRAWL_ALLOW_PRIVATE: "true", CRAWL_CONCURRENCY_PER_HOST: String(CONCURRENCY) },
      { sessionSecrets: ["x"], jwtSecret: "y" },
    ),
    log: { info: () => {}, warn: () => {}, error: (...a) => console.error(...a) },
  });
  const { db } = host.deps;
  try {
    // The process's CPU over the run, all its threads (extraction, the main thread, PGlite's): a
    // steadier figure than pages/s when other work shares the cores. PostgreSQL's server is not in it.
    const cpuBefore = process.cpuUsage();
    const serverBefore = "url" in database ? postgresCpuMs() : null;
    const { started, discovered, indexed: finished } = await crawlAndIndex(host, base);
    const cpu = process.cpuUsage(cpuBefore);
    const serverAfter = serverBefore === null ? null : postgresCpuMs();
    const seconds = (finished - started) / 1000;
    const counts = await db
      .select({ status: urls.status, n: sql<number>`count(*)::int` })
      .from(urls)
      .groupBy(urls.status);
    const indexed = Number(counts.find((c) => c.status === "indexed")?.n ?? 0);
    const [{ chunks }] = (
      (await db.execute(sql`select count(*)::int as chunks from chunks`)) as unknown as { rows: { chunks: number }[] }
    ).rows;
    return {
      pagesPerSecond: indexed / seconds,
      cpuMsPerPage: (cpu.user + cpu.system) / 1000 / indexed,
      serverCpuMsPerPage: serverBefore === null || serverAfter === null ? null : (serverAfter - serverBefore) / indexed,
      indexed,
      failed: Number(counts.find((c) => c.status === "failed_to_index")?.n ?? 0),
      chunks,
      seconds,
      discoverySeconds: (discovered - started) / 1000,
    };
  } finally {
    await host.close();
    rmSync(storageDir, { recursive: true, force: true });
  }
}

/**
 * The CPU time (ms) of every process on this machine named `postgres` (the server and its
 * backends, autovacuum included), from /proc; null where /proc cannot say (another system).
 */
function postgresCpuMs(): number | null {
  try {
    const tick = 1000 / 100; // USER_HZ: 100 on Linux
    let total = 0;
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue; // ended meanwhile
      }
      const close = stat.lastIndexOf(")");
      if (stat.slice(stat.indexOf("(") + 1, close) !== "postgres") continue;
      const fields = stat.slice(close + 2).split(" ");
      // utime, stime, cutime, cstime: fields 14–17 of stat, 12–15 after the name.
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * tick;
    }
    return total;
  } catch {
    return null;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

let server: ChildProcess | null = null;
try {
  if (!process.env.BENCH_CRAWLEE_DIR) {
    cpSync(SOURCE, siteDir, { recursive: true, filter: (from) => !from.includes("node_modules") });
    console.log("installing the bench site's pinned Crawlee (npm ci)…");
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: siteDir, stdio: "inherit" });
  }
  generateBenchSite(siteDir, path.join(work, "pages"), PAGES, base);
  server = await serveBenchSite(siteDir, path.join(work, "pages"), PORT);

  for (const { name, open } of chosenBenchDatabases(work, PG_SERVER)) {
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const target = await open();
      if (!target) {
        console.log(`${name}: no server answers at ${PG_SERVER}; skipped`);
        break;
      }
      if (process.env.BENCH_CRAWLEE !== "0") {
        const reference = await crawlee();
        theirs.push(reference.pagesPerSecond);
        console.log(
          `${name} round ${round}: crawlee   ${reference.pagesPerSecond.toFixed(0).padStart(5)} pages/s (${reference.pages} pages)`,
        );
      }
      const result = await pipeline(target.database).finally(target.drop);
      ours.push(result.pagesPerSecond);
      console.log(
        `${name} round ${round}: pipeline  ${result.pagesPerSecond.toFixed(0).padStart(5)} pages/s (${result.indexed} indexed, ${result.failed} failed, ${result.chunks} chunks, ${result.cpuMsPerPage.toFixed(1)} ms of this process's CPU a page${result.serverCpuMsPerPage === null ? "" : ` and ${result.serverCpuMsPerPage.toFixed(1)} ms of the server's`}, ${result.seconds.toFixed(1)} s of which sitemaps ${result.discoverySeconds.toFixed(1)} s)`,
      );
    }
    if (ours.length && theirs.length)
      console.log(
        `${name}: pipeline ${median(ours).toFixed(0)} pages/s, crawlee ${median(theirs).toFixed(0)} pages/s (medians): ratio ${(median(ours) / median(theirs)).toFixed(2)}×\n`,
      );
  }
} finally {
  server?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
