import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { createApi } from "./app";
import type { ApiConfig } from "./config";
import { CLOSE_WAIT_MS, openDatabase, settledWithin, type DatabaseOptions } from "./db/client";
import { seedIfEmpty } from "./db/seed";
import { consoleLogger, type ApiDeps, type Logger } from "./deps";
import { WorkerLease } from "./jobs/leases";
import { PgBossJobQueue } from "./jobs/queue";
import { takeBackAbandonedWork } from "./jobs/recovery";
import { demoSiteNeverIndexed, websitesAwaitingDiscovery } from "./knowledge/crawl/pipeline-recovery";
import { s3ConfigFromEnv } from "./storage/s3-config";
import { LocalStorage, type ObjectStorage } from "./storage/storage";
import { closeFetchAgents } from "./knowledge/crawl/fetcher";

export interface ApiHostOptions {
  database: DatabaseOptions;
  /** Where stored files live (logos, exports, uploaded PDFs) unless S3_BUCKET names a bucket. */
  storageDir: string;
  /** Environment read for S3_* settings (process.env by default). */
  env?: Record<string, string | undefined>;
  config: ApiConfig;
  /** Run job handlers in this process (the server does by default; `npm run worker` elsewhere). */
  work?: boolean;
  seed?: boolean;
  log?: Logger;
  /** How long each step of `close()` may take before it is left behind (CLOSE_WAIT_MS). */
  closeWaitMs?: number;
}

/** An advisory lock key of our own: the demo's first jobs are queued under it. */
const DEMO_JOBS_LOCK = 0xde30;

/** Opens the database (migrating it), seeds it when empty, starts pg-boss and builds the API. */
export async function startApiHost(options: ApiHostOptions) {
  const log = options.log ?? consoleLogger;
  const handle = await openDatabase(options.database);
  const jobs = await PgBossJobQueue.start(handle, log);
  // Download links are signed with a key derived from the token secret, never the secret itself.
  const storageKey = createHmac("sha256", options.config.jwtSecret).update("storage-links").digest("hex");
  const s3 = s3ConfigFromEnv(options.env ?? process.env);
  // The AWS SDK loads only when a bucket is set (./storage/s3-config).
  const storage: ObjectStorage = s3
    ? new (await import("./storage/s3")).S3Storage(s3)
    : new LocalStorage(options.storageDir, storageKey);
  const deps: ApiDeps = { db: handle.db, config: options.config, jobs, storage, log };
  const seeded = (options.seed ?? true) && (await seedIfEmpty(deps));
  let lease: WorkerLease | null = null;
  if (options.work ?? true) {
    lease = await WorkerLease.start(handle.db, {
      seconds: options.config.workerLeaseSeconds,
      // An embedded database belongs to this process alone: nothing earlier is still at work.
      soleProcess: handle.kind === "pglite",
      log,
      afterRenewal: (workerId) => takeBackAbandonedWork({ ...deps, workerId }),
    });
    // Job handlers' statements give way to pages and API calls on an embedded database (client.ts).
    await jobs.work({ ...deps, db: handle.backgroundDb, workerId: lease.workerId });
  }
  const api = createApi(deps);
  /**
   * On PostgreSQL, processes started together (web servers, workers) would each find the demo's
   * jobs not yet queued and each queue them: one at a time, each sees what the one before sent (the
   * queue's statements commit on connections of its own while the lock's transaction waits). An
   * embedded database has this process alone, and one connection the transaction would hold.
   */
  const oneStartAtATime = async (work: () => Promise<void>) => {
    if (handle.kind === "pglite") return work();
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_JOBS_LOCK})`);
      await work();
    });
  };
  return {
    api,
    deps,
    handle,
    /**
     * Picks up work a previous process left half done (call once the server answers, so the demo
     * site can be crawled). An embedded database has no other worker, so everything waiting lost
     * its job; on Postgres other processes may have queued theirs, and work held by a dead worker
     * comes back when its lease lapses. A database this start seeded has nothing to pick up: the
     * demo site it added is read and indexed now, and the runs of its test questions and the demo's
     * first conversations follow. So they do at a later start when the one that seeded stopped
     * before queueing them.
     */
    async resumePipeline() {
      const demoSites = seeded ? await websitesAwaitingDiscovery(deps, 0) : await demoSiteNeverIndexed(deps);
      for (const websiteId of demoSites) {
        await oneStartAtATime(async () => {
          // Each once: a start stopped again before they ran finds them still queued.
          if (!(await jobs.isQueued("website-discover", { websiteId, indexEveryPage: true })))
            await jobs.send("website-discover", { websiteId, indexEveryPage: true });
          // Once it is indexed, the demo's first visitors chat with it, so Conversations is not empty.
          if (!(await jobs.isQueued("demo-conversations", { websiteId })))
            await jobs.send("demo-conversations", { websiteId });
        });
      }
      if (seeded) return;
      await jobs.send("pipeline-recover", handle.kind === "pglite" ? { olderThanSeconds: 0 } : {});
    },
    /**
     * Stops working and closes what the host opened. Each step is waited for a bounded time: a
     * stopping process must end even when the database stopped answering halfway through, and the
     * work it still held goes to another worker once its lease lapses.
     */
    async close() {
      const closeWaitMs = options.closeWaitMs ?? CLOSE_WAIT_MS;
      const step = (what: string, work: () => Promise<unknown>) => finishWithin(closeWaitMs, what, work, log);
      // Sweeps stop before the job queue they send to; the lease goes once the handlers are done.
      await step("the lease's renewal", async () => lease?.stopRenewing());
      await step("the job queue", () => jobs.stop());
      await step("the lease's release", async () => lease?.release());
      await step("the crawler's connections", () => closeFetchAgents());
      // The extraction pool is the process's, not the host's, and stays: its idle threads hold
      // nothing open (piscina unrefs them) and leave after a quiet minute, and a process that exits
      // ends them. A test runner or a benchmark that opens hosts one after another reuses their
      // threads instead of starting and loading new ones for each (decision 038).
      // The pool bounds its own wait, ending connections still in use past it (db/client.ts).
      if (handle.kind === "postgres") await handle.close(closeWaitMs);
      else await step("the database", () => handle.close());
    },
  };
}

export type ApiHost = Awaited<ReturnType<typeof startApiHost>>;

/** Waits for `work` at most `ms`, then goes on, saying what was left unfinished; a failure is said too. */
async function finishWithin(ms: number, what: string, work: () => Promise<unknown>, log: Logger) {
  const working = work();
  if (!(await settledWithin(working, ms)))
    return log.warn(`closing: ${what} did not finish within ${ms / 1000} s; going on without it`);
  await working.catch((error: Error) => log.warn(`closing: ${what} failed: ${error.message}`));
}
