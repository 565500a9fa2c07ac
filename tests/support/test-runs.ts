import { eq } from "drizzle-orm";
import { clientApps, testQuestions, testResults, testRuns } from "../../api/db/schema";
import type { startTestHost } from "./test-host";

type Host = Awaited<ReturnType<typeof startTestHost>>;

/**
 * Test questions and finished runs written straight to the database, for tests of what the
 * console does with a run's outcome (the gate) without asking a responder for stage and
 * production answers that differ.
 */
export function testRunRecords(host: Host) {
  return {
    appId: async (urlCode: string) =>
      (await host.deps.db.select({ id: clientApps.id }).from(clientApps).where(eq(clientApps.urlCode, urlCode)))[0].id,
    /** The trigger points the client's profile lists (its agents' site codes apart). */
    listTriggerPoints: async (appId: number, triggerPoints: string[]) => {
      await host.deps.db.update(clientApps).set({ triggerPoints }).where(eq(clientApps.id, appId));
    },
    question: async (appId: number, triggerPoint: string, question: string) =>
      (
        await host.deps.db
          .insert(testQuestions)
          .values({ appId, triggerPoint, question, expectText: "expected" })
          .returning()
      )[0],
    /** A done run of one question in an environment, passed or failed ("text missing"); answers its id. */
    finishedRun: async (
      question: { id: number; appId: number; triggerPoint: string; question: string },
      environment: "stage" | "prod",
      passed: boolean,
    ) => {
      const [run] = await host.deps.db
        .insert(testRuns)
        .values({
          appId: question.appId,
          triggerPoint: question.triggerPoint,
          environment,
          trigger: "manual",
          status: "done",
          passed: passed ? 1 : 0,
          failed: passed ? 0 : 1,
          finishedAt: new Date(),
        })
        .returning();
      await host.deps.db.insert(testResults).values({
        runId: run.id,
        questionId: question.id,
        question: question.question,
        passed,
        reason: passed ? null : "text missing",
        outcome: "answered",
        answer: "…",
      });
      return run.id;
    },
  };
}
