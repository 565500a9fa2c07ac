/**
 * Fast pages, measured as a user meets them (docs/decisions/019-fast-pages.md):
 * - start to first page with `npm start` when nothing changed since the last build;
 * - idle RSS of the server process;
 * - the agent home and Websites pages, signed in, at 50 connections, each beside a trivial
 *   server-rendered page of the same server in the same run (the login page: the floor), every
 *   page rendered from the database;
 * - ten operators on ten different screens at once, one connection each: p95 over all of them;
 * - RSS before, during and after a soak of both pages (BENCH_SOAK_MINUTES, 0 to leave it out);
 * - brotli against gzip on a rendered page; JavaScript per console route.
 * Embedded PGlite, then a throw-away PostgreSQL database when one answers at BENCH_PG.
 *   npx tsx bench/pages.ts      BENCH_SECONDS=30 BENCH_SOAK_MINUTES=10 BENCH_PORT=4800 by default
 * On a shared machine the absolute figures move with the neighbours' load; the ratio to the floor
 * and the server's CPU time per request move much less, which is why both are printed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { formatLoad, runLoad, type LoadFigures } from "./load";
import { formatWeight, routeWeights } from "./js-weight";
import { AGENT_HOME, LOGIN, WEBSITES, cpuSecondsOf, formatTenOperators, tenOperators } from "./pages-screens";
import { BENCH_SERVER_ENV, signInCookie, startServerProcess, type ServerProcess } from "./server-process";
import { throwawayPostgres } from "./support";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 4800);
const PG = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
const FLOOR = LOGIN;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measuredLoad(server: ServerProcess, label: string, pathname: string, headers: Record<string, string>) {
  await runLoad({ label, url: `${server.url}${pathname}`, headers, seconds: 3, connections: 10 }); // warm-up
  const cpuBefore = cpuSecondsOf(server.pid);
  const figures = await runLoad({ label, url: `${server.url}${pathname}`, headers, seconds: SECONDS });
  const cpuMsPerRequest = ((cpuSecondsOf(server.pid) - cpuBefore) * 1000) / Math.max(1, figures.total);
  return { figures, cpuMsPerRequest };
}

async function waitForPage(url: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no page at ${url}`);
    await sleep(20);
  }
}

/** `npm start` as a user runs it, timed from the command to the first page answered. */
async function timeNpmStart(env: Record<string, string>, port: number) {
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: "ignore",
    detached: true,
  });
  try {
    await waitForPage(`http://127.0.0.1:${port}${FLOOR}`);
    return performance.now() - started;
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    // npm exits at once; the server it started is still closing its database. The next start on
    // the same data folder waits until every process of the group is gone.
    while (groupAlive(child.pid!)) await sleep(20);
  }
}

function groupAlive(groupId: number) {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

async function pagesOn(label: string, env: Record<string, string>) {
  console.log(`\n== ${label}`);
  // A first start seeds the database and crawls the demo site; the figures are of a later start.
  const first = await startServerProcess({ ...env, PORT: String(PORT) });
  console.log(`first start (migrate, seed)                  ${first.startedInMs.toFixed(0)} ms`);
  await sleep(5_000);
  await first.stop();
  console.log(`npm start to first page, build up to date    ${(await timeNpmStart(env, PORT + 1)).toFixed(0)} ms`);

  const server = await startServerProcess({ ...env, PORT: String(PORT + 2) });
  try {
    const cookie = await signInCookie(server.url);
    await fetch(`${server.url}${AGENT_HOME}`, { headers: { cookie } });
    // V8 gives memory back on its own once a process has been quiet for a while (its memory
    // reducer: two steps, ~10 s and ~25 s after the last work); both moments are printed.
    await sleep(5_000);
    console.log(`idle RSS, 5 s after a page                   ${server.rssMb()} MB`);
    await sleep(55_000);
    console.log(`idle RSS, settled (60 s after a page)        ${server.rssMb()} MB`);

    const floor = await measuredLoad(server, "floor: login page (signed out)", FLOOR, {});
    const home = await measuredLoad(server, "agent home, signed in", AGENT_HOME, { cookie });
    const sites = await measuredLoad(server, "Websites, signed in", WEBSITES, { cookie });
    const floorAgain = await measuredLoad(server, "floor again (drift check)", FLOOR, {});
    for (const run of [floor, home, sites, floorAgain]) {
      const ratio = run === floor || run === floorAgain ? undefined : floor.figures;
      console.log(`${formatLoad(run.figures, ratio)}  server CPU ${run.cpuMsPerRequest.toFixed(2)} ms/request`);
    }
    for (const line of formatTenOperators(await tenOperators(server.url, cookie, SECONDS))) console.log(line);
    console.log(`RSS after these loads                        ${server.rssMb()} MB`);

    if (SOAK_MINUTES > 0) {
      console.log(`RSS before the soak                          ${server.rssMb()} MB`);
      const soaked: LoadFigures[] = [];
      for (let minute = 1; minute <= SOAK_MINUTES; minute++) {
        const [a, b] = await Promise.all([
          runLoad({
            label: "soak agent home",
            url: `${server.url}${AGENT_HOME}`,
            headers: { cookie },
            seconds: 60,
            connections: 25,
          }),
          runLoad({
            label: "soak Websites",
            url: `${server.url}${WEBSITES}`,
            headers: { cookie },
            seconds: 60,
            connections: 25,
          }),
        ]);
        soaked.push(a, b);
        console.log(
          `RSS during the soak, minute ${String(minute).padStart(2)}             ${server.rssMb()} MB  (${((a.total + b.total) / 60).toFixed(0)} req/s, errors ${a.errors + b.errors})`,
        );
      }
      await sleep(10_000);
      console.log(`RSS after the soak (10 s idle)               ${server.rssMb()} MB`);
      await sleep(20_000);
      console.log(`RSS after the soak, settled (30 s idle)      ${server.rssMb()} MB`);
    }
  } finally {
    await server.stop();
  }
}

function compressionFigures(html: string) {
  const bytes = Buffer.from(html);
  const time = (run: () => Buffer) => {
    const rounds = 200;
    const started = performance.now();
    let size = 0;
    for (let i = 0; i < rounds; i++) size = run().length;
    return { size, ms: (performance.now() - started) / rounds };
  };
  const rows = [
    ["gzip level 6 (compression's default)", () => gzipSync(bytes, { level: 6 })],
    ["gzip level 1", () => gzipSync(bytes, { level: 1 })],
    [
      "brotli quality 4 (compression's default)",
      () => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
    ],
    [
      "brotli quality 11 (build-time assets)",
      () => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    ],
  ] as const;
  console.log(`\n== compressing the agent home page (${(bytes.length / 1024).toFixed(1)} KB of HTML)`);
  for (const [label, run] of rows) {
    const { size, ms } = time(run);
    console.log(`${label.padEnd(44)} ${(size / 1024).toFixed(1).padStart(5)} KB  ${ms.toFixed(3)} ms per page`);
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), "console-bench-pages-"));
try {
  await pagesOn("embedded PGlite", { ...BENCH_SERVER_ENV, DATA_DIR: dataDir, DATABASE_URL: "" });

  const sample = await startServerProcess({
    ...BENCH_SERVER_ENV,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    PORT: String(PORT + 3),
  });
  try {
    const cookie = await signInCookie(sample.url);
    compressionFigures(await (await fetch(`${sample.url}${AGENT_HOME}`, { headers: { cookie } })).text());
  } finally {
    await sample.stop();
  }

  const postgres = await throwawayPostgres(PG);
  if (!postgres) console.log(`\n(no PostgreSQL at ${PG}: the PostgreSQL figures are skipped)`);
  else {
    const pgDataDir = mkdtempSync(path.join(tmpdir(), "console-bench-pages-pg-"));
    try {
      await pagesOn("PostgreSQL", { ...BENCH_SERVER_ENV, DATA_DIR: pgDataDir, DATABASE_URL: postgres.url });
    } finally {
      await postgres.drop();
      rmSync(pgDataDir, { recursive: true, force: true });
    }
  }

  const weights = routeWeights(path.resolve("public"));
  console.log(`\n== JavaScript per console route, as served (${weights.length} routes; largest first)`);
  for (const weight of weights) console.log(formatWeight(weight));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
