import { z, type ZodType } from "zod";
import { Id } from "@contract";

/**
 * Every queue the system knows, without its handler: its name, the schema of its payload, when it
 * also runs on its own and how often it is tried. What sends jobs and what types the queue read
 * this, so they need not load every handler (catalog.ts) and all those import in turn.
 */

interface QueueDefinition<P> {
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
  /**
   * How soon a job held for later is found once it comes due. pg-boss announces a job when it is
   * sent, not when its hold ends, so without this a held job waits for the worker's backstop poll
   * (30 s). Only queues whose jobs are held on purpose set it: each poll is a statement.
   */
  dueWithinSeconds?: number;
}

const define = <P>(queue: QueueDefinition<P>) => queue;

/** A row id: a positive integer within the columns' range, so a bad one is refused before it is queued. */
const websiteId = Id;

/**
 * Jobs are enqueued only through these definitions, so a payload is checked before it is stored
 * and again before it is handled.
 */
export const queueDefinitions = {
  "purge-refresh-tokens": define({
    description: "Deletes refresh tokens that expired or were revoked.",
    payload: z.object({}),
    schedule: "17 3 * * *",
    retryLimit: 3,
  }),
  "website-discover": define({
    description:
      "Reads a website's robots.txt and sitemaps and stores its URLs for review (the demo site's at the first start: to index).",
    payload: z.object({ websiteId, indexEveryPage: z.boolean().optional() }),
    retryLimit: 2,
  }),
  "website-process": define({
    description: "Indexes, skips or deletes the URLs of a website that were asked for.",
    payload: z.object({ websiteId }),
    retryLimit: 3,
    // A website of a hundred thousand pages takes hours at four requests at a time.
    expireInSeconds: 12 * 60 * 60,
  }),
  "sitemap-refresh": define({
    description: "Reads a website's sitemaps again and marks new, removed and changed URLs for review.",
    payload: z.object({ websiteId }),
    retryLimit: 2,
  }),
  "urls-refresh-due": define({
    description:
      "Re-indexes indexed URLs older than their refresh days, and tries again pages that failed after they were indexed.",
    payload: z.object({}),
    schedule: "7 * * * *",
    retryLimit: 2,
  }),
  "test-run": define({
    description: "Asks an agent's test questions through the chat's responder and records each result.",
    payload: z.object({ runId: Id }),
    retryLimit: 1,
    // Runs that changes queue wait out the rest of their agent's minute; an operator watches for them.
    dueWithinSeconds: 5,
  }),
  "file-index": define({
    description: "Extracts, chunks and indexes an uploaded PDF.",
    payload: z.object({ fileId: Id }),
    retryLimit: 3,
  }),
  "recommendation-model-build": define({
    description: "Finds the programs in a client's indexed knowledge and fills the program model's fields.",
    payload: z.object({ buildId: Id }),
    retryLimit: 1,
  }),
  "pipeline-recover": define({
    description: "Puts URLs and files abandoned by a crashed worker back in line and closes uploads never finished.",
    payload: z.object({
      olderThanSeconds: z
        .number()
        .int()
        .min(0)
        .max(366 * 24 * 60 * 60)
        .optional(),
    }),
    schedule: "*/5 * * * *",
    retryLimit: 1,
  }),
  "demo-conversations": define({
    description:
      "At the first start, once the demo site is indexed, has three visitors chat with its admissions agent in the sandbox.",
    // How many times it has looked for the demo site's pages indexed (it looks again 5 s later).
    payload: z.object({ websiteId, attempt: z.number().int().min(0).max(1000).default(0) }),
    retryLimit: 1,
    dueWithinSeconds: 5,
  }),
  "database-maintenance": define({
    description:
      "Vacuums and analyses the tables that need it when the database has no autovacuum of its own (embedded PGlite).",
    payload: z.object({}),
    // Also sent when a website's indexing run ends, so its passages are searched with fresh statistics.
    schedule: "*/5 * * * *",
    retryLimit: 1,
  }),
};

type QueueDefinitions = typeof queueDefinitions;
export type QueueName = keyof QueueDefinitions;
/** What a job of the queue is sent with. */
export type PayloadOf<N extends QueueName> = z.input<QueueDefinitions[N]["payload"]>;
/** What its handler is given, the payload once checked. */
export type CheckedPayloadOf<N extends QueueName> = z.output<QueueDefinitions[N]["payload"]>;

export const queueNames = Object.keys(queueDefinitions) as QueueName[];
export const isQueueName = (name: string): name is QueueName => Object.hasOwn(queueDefinitions, name);
