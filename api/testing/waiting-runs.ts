import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../controls/scope";
import { testRuns } from "../db/schema";
import type { ApiDeps } from "../deps";
import { HttpError } from "../http/errors";

/** One agent (its trigger point) of a client in one environment: what has at most one waiting run. */
export interface RunKey {
  appId: number;
  triggerPoint: string;
  environment: "stage" | "prod";
}

/** What a waiting run's trigger gains when someone asks for it by hand: why it was queued stays readable. */
export const STARTED_BY_HAND = ", started by hand";

const waitingRunOf = (key: RunKey) =>
  and(
    eq(testRuns.appId, key.appId),
    eq(testRuns.triggerPoint, key.triggerPoint),
    eq(testRuns.environment, key.environment),
    eq(testRuns.status, "queued"),
  );

/**
 * A new waiting run of `key`, due in `startAfterSeconds`, unless one already waits. The database
 * keeps one waiting run per agent and environment (the partial unique index test_runs_one_waiting),
 * so callers at the same moment cannot queue two, on PGlite or PostgreSQL alike. Answers the new
 * run's id, or null when one was waiting; the caller sends its job.
 */
export async function insertWaitingRun(key: RunKey, trigger: string, startAfterSeconds: number, db: Executor) {
  const [run] = await db
    .insert(testRuns)
    .values({ ...key, trigger, startAfter: sql`now() + make_interval(secs => ${Math.max(0, startAfterSeconds)})` })
    .onConflictDoNothing({
      target: [testRuns.appId, testRuns.triggerPoint, testRuns.environment],
      where: sql`status = 'queued'`,
    })
    .returning({ id: testRuns.id });
  return run?.id ?? null;
}

/** Tries before giving up when the waiting run keeps leaving the queue between two statements (it never does twice in practice). */
const ATTEMPTS = 5;

/**
 * A run of an agent's test questions in one environment that starts now (Run in stage, Run in
 * production). When a run of the same agent and environment waits, no second one is queued: that
 * run is the one, and if the one-run-a-minute rule holds it back, it is brought forward and its
 * trigger notes the hand that asked ("controls saved, started by hand"); its job, still scheduled
 * for later, finds it run and is skipped. Either way a job is sent that starts it now. Answers the
 * run's id.
 */
export async function startTestRun(key: RunKey, trigger: string, deps: Pick<ApiDeps, "db" | "jobs">) {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const created = await insertWaitingRun(key, trigger, 0, deps.db);
    if (created) {
      await deps.jobs.send("test-run", { runId: created });
      return created;
    }
    // Only one caller brings a held-back run forward (the row is updated once); the others find it due.
    const [broughtForward] = await deps.db
      .update(testRuns)
      .set({ startAfter: sql`now()`, trigger: sql`${testRuns.trigger} || ${STARTED_BY_HAND}` })
      .where(and(waitingRunOf(key), sql`${testRuns.startAfter} > now()`))
      .returning({ id: testRuns.id });
    if (broughtForward) {
      await deps.jobs.send("test-run", { runId: broughtForward.id });
      return broughtForward.id;
    }
    // Due already. Its own job may still wait for the queue's next poll (a held job is not announced
    // when it comes due): a job sent now starts it at once, and whichever comes second is skipped.
    const [due] = await deps.db.select({ id: testRuns.id }).from(testRuns).where(waitingRunOf(key));
    if (due) {
      await deps.jobs.send("test-run", { runId: due.id });
      return due.id;
    }
    // It started between these statements: the next attempt queues a new run.
  }
  throw new HttpError(409, "Runs of this agent are starting as you ask: ask again");
}
