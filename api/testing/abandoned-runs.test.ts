import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, testRuns } from "../db/schema";
import { takeBackAbandonedWork } from "../jobs/recovery";
import { startTestHost } from "../../tests/support/test-host";
import { RUN_INTERRUPTED } from "./abandoned-runs";

/**
 * Runs no job will finish, taken back by the recovery every job-handling process makes after each
 * lease renewal. Jobs are not handled here, so the jobs sent can be looked up in pg-boss's table.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let appId: number;

beforeAll(async () => {
  host = await startTestHost({}, {}, { work: false });
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(() => host?.close());

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A run as a worker left it: `minutesAgo` since it was due. */
async function runLeft(status: string, triggerPoint: string, environment: string, minutesAgo: number) {
  const [run] = await host.deps.db
    .insert(testRuns)
    .values({
      appId,
      triggerPoint,
      environment,
      status,
      trigger: "controls saved",
      startAfter: sql`now() - make_interval(mins => ${minutesAgo})`,
    })
    .returning();
  return run;
}

const jobsOf = async (runId: number) =>
  rowsOf<{ state: string }>(
    await host.deps.db.execute(
      sql`select state::text as state from pgboss.job where name = 'test-run' and data->>'runId' = ${String(runId)}`,
    ),
  );
const runOf = async (id: number) => (await host.deps.db.select().from(testRuns).where(eq(testRuns.id, id)))[0];

describe("test runs no job will finish", () => {
  it("closes a run whose worker stopped as interrupted and queues another in its place; sends a lost job again", async () => {
    const stopped = await runLeft("running", "admissions", "stage", 5);
    const lostJob = await runLeft("queued", "admissions", "prod", 5);
    const beingAsked = await runLeft("running", "", "stage", 5);
    await host.deps.jobs.send("test-run", { runId: beingAsked.id }, { startAfterSeconds: 3600 });
    const justQueued = await runLeft("queued", "", "prod", 0);

    await takeBackAbandonedWork(host.deps);

    expect(await runOf(stopped.id)).toMatchObject({ status: "failed", error: RUN_INTERRUPTED });
    const [again] = rowsOf<{ id: number; trigger: string }>(
      await host.deps.db.execute(
        sql`select id, trigger from test_runs where app_id = ${appId} and trigger_point = 'admissions' and environment = 'stage' and status = 'queued'`,
      ),
    );
    expect(again.trigger).toBe("controls saved, again after an interruption");
    expect(await jobsOf(again.id)).toEqual([{ state: "created" }]);
    expect(await jobsOf(lostJob.id)).toEqual([{ state: "created" }]);
    // A run with a job of its own, and one whose job may still be on its way, are left as they are.
    expect((await runOf(beingAsked.id)).status).toBe("running");
    expect(await jobsOf(justQueued.id)).toEqual([]);

    // Taken back once: the next recovery finds every run with its job.
    await takeBackAbandonedWork(host.deps);
    expect(await jobsOf(lostJob.id)).toHaveLength(1);
  });
});
