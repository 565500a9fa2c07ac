import { createHmac } from "node:crypto";
import { createApi } from "./app";
import type { ApiConfig } from "./config";
import { openDatabase, type DatabaseOptions } from "./db/client";
import { seedIfEmpty } from "./db/seed";
import { consoleLogger, type ApiDeps, type Logger } from "./deps";
import { JobQueue } from "./jobs/queue";
import { S3Storage, s3ConfigFromEnv } from "./storage/s3";
import { LocalStorage, type ObjectStorage } from "./storage/storage";
import { closeExtractPool } from "./knowledge/extract-pool";
import { closeFetchAgents } from "./knowledge/fetcher";

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
}

/** Opens the database (migrating it), seeds it when empty, starts pg-boss and builds the API. */
export async function startApiHost(options: ApiHostOptions) {
  const log = options.log ?? consoleLogger;
  const handle = await openDatabase(options.database);
  const jobs = await JobQueue.start(handle, log);
  // Download links are signed with a key derived from the token secret, never the secret itself.
  const storageKey = createHmac("sha256", options.config.jwtSecret).update("storage-links").digest("hex");
  const s3 = s3ConfigFromEnv(options.env ?? process.env);
  const storage: ObjectStorage = s3 ? new S3Storage(s3) : new LocalStorage(options.storageDir, storageKey);
  const deps: ApiDeps = { db: handle.db, config: options.config, jobs, storage, log };
  if (options.seed ?? true) await seedIfEmpty(deps);
  if (options.work ?? true) await jobs.work(deps);
  const api = createApi(deps);
  return {
    api,
    deps,
    handle,
    /**
     * Picks up work a previous process left half done (call once the server answers, so the demo
     * site can be crawled). An embedded database has no other worker, so everything in flight was
     * abandoned; on Postgres other workers may still be busy with theirs.
     */
    resumePipeline: () => jobs.send("pipeline-recover", handle.kind === "pglite" ? { olderThanSeconds: 0 } : {}),
    async close() {
      await jobs.stop();
      await closeFetchAgents();
      await closeExtractPool();
      await handle.close();
    },
  };
}

export type ApiHost = Awaited<ReturnType<typeof startApiHost>>;
