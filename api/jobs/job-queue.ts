import type { JobRecord, JobsList, JobsQuery, QueueSummary } from "@contract";
import type { PayloadOf, QueueName } from "./payloads";

/**
 * The job queue as routes and job handlers use it (ApiDeps.jobs): sending jobs, and what the jobs
 * dashboard reads and does. Typed by the queues' payloads alone, never their handlers, which
 * themselves take the queue among their deps; queue.ts has the pg-boss queue that runs them.
 */
export interface JobQueue {
  /** Enqueues a job after checking its payload; `startAfterSeconds` holds it back that long. */
  send<N extends QueueName>(
    name: N,
    payload: PayloadOf<N>,
    options?: { startAfterSeconds?: number },
  ): Promise<string | null>;
  /** Whether a job of `name` whose payload holds `data` waits, retries or runs (a start that queues a job once asks first). */
  isQueued<N extends QueueName>(name: N, data: Partial<PayloadOf<N>>): Promise<boolean>;
  /** Counts by state for every queue. */
  listQueues(): Promise<QueueSummary[]>;
  listJobs(query: JobsQuery): Promise<JobsList>;
  getJob(queue: string, id: string): Promise<JobRecord>;
  /** Puts a failed or cancelled job back in line. */
  retry(queue: string, id: string): Promise<void>;
  cancel(queue: string, id: string): Promise<void>;
  /** Runs a job now (the dashboard's "Run now"). */
  runNow(queue: string, data: Record<string, unknown>): Promise<string | null>;
}
