import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiConfigFromEnv } from "../../config";
import type { Database } from "../../db/client";
import { urls, websites } from "../../db/schema";
import { startApiHost } from "../../host";
import { startFixtureSite } from "../../../tests/support/fixture-site";
import { freshDatabase, quietLog, TEST_SECRETS } from "../../../tests/support/test-host";
import { until } from "../../../tests/support/wait";

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let dataDir: string;
beforeAll(async () => {
  site = await startFixtureSite({ slowMs: 700 });
  dataDir = mkdtempSync(path.join(tmpdir(), "console-crash-"));
});
afterAll(async () => {
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A server process (tests/support/crashable-host.ts) indexes slow pages on `where` (a PGlite
 * folder or a postgres:// address) and is killed with SIGKILL while URLs are in flight. Given
 * `CRASH_AFTER_PAGES`, the site answers that many pages and holds the rest until the kill, so pages
 * are still in flight when the child looks, however slow the machine.
 */
async function killMidIndexing(where: string, env: Record<string, string> = {}) {
  const afterPages = env.CRASH_AFTER_PAGES;
  if (afterPages) site.holdSlowPagesAfter(Number(afterPages));
  // node itself with tsx as a loader (not the tsx wrapper), so SIGKILL reaches the process that works.
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/crashable-host.ts", where, site.base], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      // A child that never gets there must not outlive the test: it would hold the database folder
      // the next test opens.
      const stuck = setTimeout(() => reject(new Error("the child did not start indexing in 150 s")), 150_000);
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("indexing")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the child exited early (${code})`)));
      void exited.then(() => clearTimeout(stuck));
    });
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    site.releaseSlowPages();
  }
}

const statuses = async (db: Database) =>
  (
    await db
      .select({ status: urls.status, n: sql<number>`count(*)::int` })
      .from(urls)
      .groupBy(urls.status)
      .orderBy(urls.status)
  ).map((r) => `${r.status}:${r.n}`);

const config = (env: Record<string, string>) =>
  apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true", CRAWL_CONCURRENCY_PER_HOST: "4", ...env }, TEST_SECRETS);

const lastRefresh = async (db: Database) =>
  (await db.select({ record: websites.lastRefresh }).from(websites))[0].record;

/** A new process opens the killed one's embedded database and picks the work up. */
async function resumeOnPglite(check: (host: Awaited<ReturnType<typeof startApiHost>>) => Promise<void>) {
  const host = await startApiHost({
    database: { dir: path.join(dataDir, "pglite") },
    storageDir: path.join(dataDir, "files"),
    config: config({}),
    seed: false,
    log: quietLog,
  });
  try {
    expect(
      (await statuses(host.deps.db)).some((s) => s.startsWith("sent_for_indexing") || s.startsWith("to_be_indexed")),
    ).toBe(true);
    await host.resumePipeline();
    // Eight pages of 0.7 s at four a host take a few seconds; on a loaded two-core machine the resumed
    // host has needed more than 30 s to open the database, recover and finish them, so it gets 90.
    await until("indexing to resume", async () => (await statuses(host.deps.db)).join() === "indexed:8", 90_000);
    await check(host);
  } finally {
    await host.close();
  }
}

// Each test starts a server process that loads the API through tsx and migrates a new embedded
// database before it indexes: on a two-core machine running other test files beside it, that alone
// has taken over a minute, so the limit is generous; a stuck resume still fails on its own wait.
it("resumes indexing after the process is killed mid-run, and the refresh record counts every page", async () => {
  // Killed once two pages are written: what they came to must not be lost with the process.
  await killMidIndexing(dataDir, { CRASH_AFTER_PAGES: "2" });
  await resumeOnPglite(async (host) => {
    expect(await lastRefresh(host.deps.db)).toMatchObject({ new: 8, checked: 0, failed: 0 });
  });
}, 180_000);

it("counts the whole of a refresh killed midway and resumed in its Last refresh", async () => {
  await killMidIndexing(dataDir, { CRASH_AFTER_PAGES: "2" });
  await resumeOnPglite(async (host) => {
    expect(await lastRefresh(host.deps.db)).toMatchObject({ checked: 8, unchanged: 8, changed: 0, new: 0, failed: 0 });
  });
}, 180_000);

it.skipIf(!process.env.TEST_DATABASE_URL)(
  "on PostgreSQL, a worker takes a killed worker's URLs and jobs back within a minute, and never takes its own live work",
  async () => {
    const database = await freshDatabase();
    const url = (database.options as { url: string }).url;
    const slowFetches = () => site.requests.filter((p) => p === "/slow").length;
    site.setSlowMs(700);
    try {
      await killMidIndexing(url, { WORKER_LEASE_SECONDS: "4" });
      const fetchedByKilled = slowFetches();
      // Pages now take longer than a lease: the surviving worker's claims outlive several of its sweeps.
      site.setSlowMs(6000);
      // No resumePipeline: the worker's own lease sweeps must find the dead worker's URLs.
      const host = await startApiHost({
        database: database.options,
        storageDir: path.join(dataDir, "pg-files"),
        config: config({ WORKER_LEASE_SECONDS: "4" }),
        seed: false,
        log: quietLog,
      });
      try {
        expect((await statuses(host.deps.db)).some((s) => s.startsWith("sent_for_indexing"))).toBe(true);
        await until(
          "the killed worker's URLs to be indexed",
          async () => (await statuses(host.deps.db)).join() === "indexed:8",
          60_000,
        );
        // Each page once by the survivor: none of its own claims was taken back from it mid-fetch.
        expect(slowFetches() - fetchedByKilled).toBe(8);
        // The killed worker's pg-boss job does not stay active until its expiry (12 hours).
        await until(
          "no job left active",
          async () => {
            const { rows } = (await host.handle.db.execute(
              sql`select count(*)::int as n from pgboss.job where state = 'active'`,
            )) as unknown as { rows: { n: number }[] };
            return Number(rows[0].n) === 0;
          },
          60_000,
        );
      } finally {
        await host.close();
      }
    } finally {
      site.setSlowMs(700);
      await database.drop();
    }
  },
  180_000,
);
