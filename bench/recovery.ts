/**
 * Crash recovery, with the default lease (WORKER_LEASE_SECONDS=30): a server process indexing
 * slow pages is killed with SIGKILL, a new one starts on the same database, and we print how long
 * until the killed worker's URLs are all indexed and until none of its pg-boss jobs shows active.
 * Then the cost of the recovery sweep every job-handling process runs after each lease renewal,
 * over a table of 200,000 URLs with 100 in flight. PGlite (a folder) and, when reachable,
 * PostgreSQL (BENCH_PG, default the local server).
 *   npx tsx bench/recovery.ts
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { apiConfigFromEnv } from "../api/config";
import type { DatabaseOptions } from "../api/db/client";
import { clientApps, websites, workerLeases } from "../api/db/schema";
import { startApiHost } from "../api/host";
import { takeBackAbandonedUrls } from "../api/knowledge/crawl/pipeline-recovery";
import { startFixtureSite } from "../tests/support/fixture-site";
import { percentiles, throwawayPostgres } from "./support";

const quiet = { info: () => {}, warn: () => {}, error: (...args: unknown[]) => console.error(...args) };
const secrets = { sessionSecrets: ["bench"], jwtSecret: "bench" };
const site = await startFixtureSite({ slowMs: 700 });

async function killMidIndexing(where: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/crashable-host.ts", where, site.base], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("indexing") && resolve());
    child.once("exit", (code) => reject(new Error(`the crashing host exited early (${code})`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return performance.now();
}

async function recovery(label: string, where: string, database: DatabaseOptions, storageDir: string) {
  const killedAt = await killMidIndexing(where);
  const host = await startApiHost({
    database,
    storageDir,
    config: apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true" }, secrets),
    seed: false,
    log: quiet,
  });
  const startedAt = performance.now();
  await host.resumePipeline();
  const count = async (query: ReturnType<typeof sql>) =>
    Number(((await host.deps.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0].n);
  let indexedAt = 0;
  let jobsAt = 0;
  while (!indexedAt || !jobsAt) {
    const now = performance.now();
    if (now - killedAt > 600_000) throw new Error(`${label}: not recovered within 10 minutes`);
    if (!indexedAt && (await count(sql`select count(*)::int as n from urls where status <> 'indexed'`)) === 0)
      indexedAt = now;
    if (!jobsAt && (await count(sql`select count(*)::int as n from pgboss.job where state = 'active'`)) === 0)
      jobsAt = now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await host.close();
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `${label}: new process up ${s(startedAt - killedAt)} after the kill; all 8 URLs indexed ${s(indexedAt - killedAt)} after it; no job active ${s(jobsAt - killedAt)} after it`,
  );
}

async function sweepCost(label: string, database: DatabaseOptions, storageDir: string) {
  const host = await startApiHost({
    database,
    storageDir,
    config: apiConfigFromEnv({}, secrets),
    seed: false,
    log: quiet,
    work: false,
  });
  const { db } = host.deps;
  const [app] = await db
    .insert(clientApps)
    .values({ clientName: "Sweep", urlCode: `sweep-${randomUUID().slice(0, 8)}` })
    .returning();
  const [website] = await db
    .insert(websites)
    .values({ appId: app.id, url: "https://sweep.example/", status: "sitemap_generated" })
    .returning();
  await db.execute(sql`insert into urls (app_id, website_id, url, status)
    select ${app.id}, ${website.id}, 'https://sweep.example/page-' || g, case when g % 3 = 0 then 'indexed' when g % 3 = 1 then 'pending_review' else 'failed_to_index' end
    from generate_series(1, 200000) g`);
  const live = randomUUID();
  await db
    .insert(workerLeases)
    .values({ workerId: live, process: "bench:1", expiresAt: sql`now() + interval '1 hour'` });
  await db.execute(
    sql`update urls set status = 'sent_for_indexing', claimed_by = ${live} where id in (select id from urls where website_id = ${website.id} order by id limit 50)`,
  );
  await db.execute(sql`analyze urls`);
  const samples: number[] = [];
  for (let i = 0; i < 40; i++) {
    // 50 URLs of a dead worker each round, beside the 50 of the live one that must stay.
    await db.execute(
      sql`update urls set status = 'sent_for_indexing', claimed_by = ${randomUUID()} where id in (select id from urls where website_id = ${website.id} and status = 'indexed' order by id limit 50)`,
    );
    const started = performance.now();
    await takeBackAbandonedUrls(host.deps);
    samples.push(performance.now() - started);
  }
  const idle: number[] = [];
  for (let i = 0; i < 40; i++) {
    const started = performance.now();
    await takeBackAbandonedUrls(host.deps);
    idle.push(performance.now() - started);
  }
  const working = percentiles(samples);
  const quietSweep = percentiles(idle);
  console.log(
    `${label}: recovery sweep over 200,000 URLs (100 in flight): ${working.p50} / ${working.p95} ms p50 / p95 taking back 50; ${quietSweep.p50} / ${quietSweep.p95} ms with nothing to take back`,
  );
  await host.close();
}

const dir = mkdtempSync(path.join(tmpdir(), "console-bench-recovery-"));
try {
  await recovery("PGlite", dir, { dir: path.join(dir, "pglite") }, path.join(dir, "files"));
  await sweepCost("PGlite", {}, path.join(dir, "files"));
  const postgres = await throwawayPostgres(process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres");
  if (!postgres) console.log("PostgreSQL: no server reachable, skipped");
  else {
    try {
      await recovery("PostgreSQL", postgres.url, { url: postgres.url }, path.join(dir, "files"));
      await sweepCost("PostgreSQL", { url: postgres.url }, path.join(dir, "files"));
    } finally {
      await postgres.drop();
    }
  }
} finally {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
}
