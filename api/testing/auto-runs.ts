import { and, desc, eq, inArray } from "drizzle-orm";
import { DEFAULT_TRIGGER_POINT } from "@contract";
import { testQuestions, testRuns } from "../db/schema";
import type { ApiDeps } from "../deps";
import { insertWaitingRun } from "./waiting-runs";

/** An agent's runs queued by changes come at most this often per environment. */
const MIN_SECONDS_BETWEEN_RUNS = 60;
const ENVIRONMENTS = ["stage", "prod"] as const;

/**
 * After anything that can change answers (a control, finetuning or prompt saved, a page or file
 * indexed, a tag changed): a run of each affected agent's test questions, in both environments,
 * recording `trigger`. A change to Default (or to knowledge) affects every agent of the client; an
 * agent without test questions gets no run. A run still waiting absorbs the change; within a
 * minute of the last run, the next waits out the rest of that minute.
 */
export async function queueRunsAfterChange(
  appId: number,
  triggerPoints: string[] | "every agent",
  trigger: string,
  deps: Pick<ApiDeps, "db"> & Partial<Pick<ApiDeps, "jobs">>,
) {
  // A pipeline driven without a queue (a benchmark calling it directly) has no runs to queue.
  if (!deps.jobs) return;
  const jobs = deps.jobs;
  const every = triggerPoints === "every agent" || triggerPoints.includes(DEFAULT_TRIGGER_POINT);
  const tested = await deps.db
    .selectDistinct({ triggerPoint: testQuestions.triggerPoint })
    .from(testQuestions)
    .where(
      every
        ? eq(testQuestions.appId, appId)
        : and(eq(testQuestions.appId, appId), inArray(testQuestions.triggerPoint, triggerPoints as string[])),
    );
  for (const { triggerPoint } of tested) {
    for (const environment of ENVIRONMENTS) {
      const [last] = await deps.db
        .select({ createdAt: testRuns.createdAt })
        .from(testRuns)
        .where(
          and(
            eq(testRuns.appId, appId),
            eq(testRuns.triggerPoint, triggerPoint),
            eq(testRuns.environment, environment),
          ),
        )
        .orderBy(desc(testRuns.id))
        .limit(1);
      const since = last ? (Date.now() - last.createdAt.getTime()) / 1000 : Infinity;
      const wait = Math.max(0, Math.ceil(MIN_SECONDS_BETWEEN_RUNS - since));
      // A run still waiting absorbs the change: no second one is queued (the database keeps one).
      const runId = await insertWaitingRun({ appId, triggerPoint, environment }, trigger, wait, deps.db);
      if (runId) await jobs.send("test-run", { runId }, wait > 0 ? { startAfterSeconds: wait } : {});
    }
  }
}
