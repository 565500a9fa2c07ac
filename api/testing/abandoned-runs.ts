import { and, eq, sql } from "drizzle-orm";
import { testRuns } from "../db/schema";
import type { ApiDeps } from "../deps";
import { insertWaitingRun } from "./waiting-runs";

/** What an interrupted run says on its page: it stopped partway, and another was queued in its place. */
export const RUN_INTERRUPTED = "The run stopped partway (its worker stopped); it was queued again";

/**
 * How long a run may wait for its job to appear: the run is written before its job is sent, in the
 * same request, so only a run older than this without a job has lost it.
 */
const JOB_SENT_WITHIN_SECONDS = 60;

/**
 * Test runs no job will finish. A run "running" whose job is neither waiting, retrying nor active
 * was being asked by a worker that stopped (pg-boss fails the job once its heartbeats stop, and its
 * retry finds the run no longer queued): it is closed as interrupted, with what it answered so
 * far, and a new run of the same agent and environment is queued in its place unless one already
 * waits. A queued run whose job was lost gets a job again. Answers how many of each.
 */
export async function takeBackAbandonedRuns(deps: Pick<ApiDeps, "db" | "jobs">) {
  const { rows } = (await deps.db.execute(sql`
    select r.id, r.app_id, r.trigger_point, r.environment, r.status, r.trigger from test_runs r
    where r.status in ('queued', 'running')
      and r.start_after < now() - make_interval(secs => ${JOB_SENT_WITHIN_SECONDS})
      and not exists (
        select 1 from pgboss.job j
        where j.name = 'test-run' and j.state in ('created', 'retry', 'active') and j.data->>'runId' = r.id::text)`)) as unknown as {
    rows: {
      id: number;
      app_id: number;
      trigger_point: string;
      environment: "stage" | "prod";
      status: string;
      trigger: string;
    }[];
  };
  let requeued = 0;
  let interrupted = 0;
  for (const run of rows) {
    if (run.status === "queued") {
      await deps.jobs.send("test-run", { runId: run.id });
      requeued += 1;
      continue;
    }
    const [closed] = await deps.db
      .update(testRuns)
      .set({ status: "failed", error: RUN_INTERRUPTED, finishedAt: new Date() })
      .where(and(eq(testRuns.id, run.id), eq(testRuns.status, "running")))
      .returning({ id: testRuns.id });
    if (!closed) continue;
    interrupted += 1;
    const key = { appId: run.app_id, triggerPoint: run.trigger_point, environment: run.environment };
    const again = await insertWaitingRun(key, `${run.trigger}, again after an interruption`, 0, deps.db);
    if (again) await deps.jobs.send("test-run", { runId: again });
  }
  return { requeued, interrupted };
}
