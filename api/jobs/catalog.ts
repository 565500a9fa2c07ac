import { purgeDeadRefreshTokens } from "../auth/tokens";
import { maintainTables } from "../db/maintenance";
import { holdDemoConversations } from "../chat/demo-conversations";
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
import type { CheckedPayloadOf, QueueName } from "./payloads";

/** A queue's handler: given the checked payload, it answers what the job's record keeps as its output. */
type Handler<N extends QueueName> = (
  payload: CheckedPayloadOf<N>,
  deps: WorkerDeps,
) => Promise<Record<string, unknown> | void>;

/**
 * Every queue's handler (the queues themselves, their payloads and schedules, are in payloads.ts).
 * Only the process that runs jobs loads this, and with it every stage it drives.
 */
export const jobHandlers: { [N in QueueName]: Handler<N> } = {
  "purge-refresh-tokens": async (_payload, deps) => ({ deleted: await purgeDeadRefreshTokens(deps) }),
  "website-discover": async ({ websiteId, indexEveryPage: thenIndex }, deps) => {
    const discovered = await discoverWebsite(websiteId, deps);
    return thenIndex ? { ...discovered, ...(await indexEveryPage(websiteId, deps)) } : discovered;
  },
  "website-process": async ({ websiteId }, deps) => processWebsite(websiteId, deps),
  "sitemap-refresh": async ({ websiteId }, deps) => refreshSitemap(websiteId, deps),
  "urls-refresh-due": async (_payload, deps) => {
    const websiteIds = await queueDueRefreshes(deps, DEFAULT_REFRESH_DAYS);
    for (const websiteId of websiteIds) await deps.jobs.send("website-process", { websiteId });
    return { websites: websiteIds.length };
  },
  "test-run": async ({ runId }, deps) => runTests(runId, deps),
  "file-index": async ({ fileId }, deps) => indexFile(fileId, deps),
  "recommendation-model-build": async ({ buildId }, deps) => buildRecommendationModel(buildId, deps),
  "pipeline-recover": async ({ olderThanSeconds }, deps) =>
    recoverPipeline(deps, olderThanSeconds ?? deps.config.stuckAfterSeconds),
  "demo-conversations": async (payload, deps) => holdDemoConversations(payload, deps),
  "database-maintenance": async (_payload, deps) => maintainTables(deps.db),
};
