import { z, type ZodType } from "zod";
import { purgeDeadRefreshTokens } from "../auth/tokens";
import { maintainTables } from "../db/maintenance";
import { DEFAULT_REFRESH_DAYS } from "@contract";
import { discoverWebsite } from "../knowledge/crawl/discover-website";
import { indexEveryPage } from "../knowledge/crawl/index-every-page";
import { processWebsite } from "../knowledge/crawl/index-website";
import { queueDueRefreshes, refreshSitemap } from "../knowledge/crawl/refresh-sitemap";
import type { WorkerDeps } from "../deps";
import { indexFile } from "../files/pipeline";
import { buildRecommendationModel } from "../personalisation/build";
import { recoverPipeline } from "./recovery";
import { runTests } from "../testing/run-tests";

interface JobDefinition<P> {
  description: string;
  payload: ZodType<P>;
  /** Cron expression (UTC) when the queue also runs on a schedule. */
  schedule?: string;
  retryLimit?: number;
  /**
   * How long a job may run. A killed worker's job is noticed by its missed heartbeats (see
   * queue.ts), so this only bounds a live one; pg-boss's default is 15 minutes.
   */
  expireInSeconds?: number;
  handler: (payload: P, deps: WorkerDeps) => Promise<Record<string, unknown> | void>;
}

const define = <P>(job: JobDefinition<P>) => job;

/**
 * Every queue the system knows: name ⇒ payload schema ⇒ handler. Jobs are enqueued only through
 * this catalog, so a payload is checked before it is stored and again before it is handled.
 */
export const jobCatalog = {
  "purge-refresh-tokens": define({
    description: "Deletes refresh tokens that expired or were revoked.",
    payload: z.object({}),
    schedule: "17 3 * * *",
    retryLimit: 3,
    handler: async (_payload, deps) => ({ deleted: await purgeDeadRefreshTokens(deps) }),
  }),
  "website-discover": define({
    description:
      "Reads a website's robots.txt and sitemaps and stores its URLs for review (the demo site's at the first start: to index).",
    payload: z.object({ websiteId: z.number().int().positive(), indexEveryPage: z.boolean().optional() }),
    retryLimit: 2,
    handler: async ({ websiteId, indexEveryPage: thenIndex }, deps) => {
      const discovered = await discoverWebsite(websiteId, deps);
      return thenIndex ? { ...discovered, ...(await indexEveryPage(websiteId, deps)) } : discovered;
    },
  }),
  "website-process": define({
    description: "Indexes, skips or deletes the URLs of a website that were asked for.",
    payload: z.object({ websiteId: z.number().int().positive() }),
    retryLimit: 3,
    // A website of a hundred thousand pages takes hours at four requests at a time.
    expireInSeconds: 12 * 60 * 60,
    handler: async ({ websiteId }, deps) => processWebsite(websiteId, deps),
  }),
  "sitemap-refresh": define({
    description: "Reads a website's sitemaps again and marks new, removed and changed URLs for review.",
    payload: z.object({ websiteId: z.number().int().positive() }),
    retryLimit: 2,
    handler: async ({ websiteId }, deps) => refreshSitemap(websiteId, deps),
  }),
  "urls-refresh-due": define({
    description: "Re-indexes indexed URLs older than their refresh days.",
    payload: z.object({}),
    schedule: "7 * * * *",
    retryLimit: 2,
    handler: async (_payload, deps) => {
      const websiteIds = await queueDueRefreshes(deps, DEFAULT_REFRESH_DAYS);
      for (const websiteId of websiteIds) await deps.jobs.send("website-process", { websiteId });
      return { websites: websiteIds.length };
    },
  }),
  "test-run": define({
    description: "Asks an agent's test questions through the chat's responder and records each result.",
    payload: z.object({ runId: z.number().int().positive() }),
    retryLimit: 1,
    handler: async ({ runId }, deps) => runTests(runId, deps),
  }),
  "file-index": define({
    description: "Extracts, chunks and indexes an uploaded PDF.",
    payload: z.object({ fileId: z.number().int().positive() }),
    retryLimit: 3,
    handler: async ({ fileId }, deps) => indexFile(fileId, deps),
  }),
  "recommendation-model-build": define({
    description: "Finds the programs in a client's indexed knowledge and fills the program model's fields.",
    payload: z.object({ buildId: z.number().int().positive() }),
    retryLimit: 1,
    handler: async ({ buildId }, deps) => buildRecommendationModel(buildId, deps),
  }),
  "pipeline-recover": define({
    description: "Puts URLs and files abandoned by a crashed worker back in line and closes uploads never finished.",
    payload: z.object({ olderThanSeconds: z.number().int().min(0).optional() }),
    schedule: "*/5 * * * *",
    retryLimit: 1,
    handler: async ({ olderThanSeconds }, deps) =>
      recoverPipeline(deps, olderThanSeconds ?? deps.config.stuckAfterSeconds),
  }),
  "database-maintenance": define({
    description:
      "Vacuums and analyses the tables that need it when the database has no autovacuum of its own (embedded PGlite).",
    payload: z.object({}),
    // Also sent when a website's indexing run ends, so its passages are searched with fresh statistics.
    schedule: "*/5 * * * *",
    retryLimit: 1,
    handler: async (_payload, deps) => maintainTables(deps.db),
  }),
};

export type JobCatalog = typeof jobCatalog;
export type QueueName = keyof JobCatalog;
export type PayloadOf<N extends QueueName> = z.input<JobCatalog[N]["payload"]>;

export const queueNames = Object.keys(jobCatalog) as QueueName[];
export const isQueueName = (name: string): name is QueueName => name in jobCatalog;
