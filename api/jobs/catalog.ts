import { z, type ZodType } from "zod";
import { purgeDeadRefreshTokens } from "../auth/tokens";
import type { ApiDeps } from "../deps";

interface JobDefinition<P> {
  description: string;
  payload: ZodType<P>;
  /** Cron expression (UTC) when the queue also runs on a schedule. */
  schedule?: string;
  retryLimit?: number;
  handler: (payload: P, deps: ApiDeps) => Promise<Record<string, unknown> | void>;
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
};

export type JobCatalog = typeof jobCatalog;
export type QueueName = keyof JobCatalog;
export type PayloadOf<N extends QueueName> = z.input<JobCatalog[N]["payload"]>;

export const queueNames = Object.keys(jobCatalog) as QueueName[];
export const isQueueName = (name: string): name is QueueName => name in jobCatalog;
