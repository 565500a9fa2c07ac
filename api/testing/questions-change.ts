import { and, asc, eq } from "drizzle-orm";
import type { TestQuestion } from "@contract";
import type { Executor } from "../controls/scope";
import { testQuestions } from "../db/schema";
import { listChanges, triggerPointName } from "../history/describe";
import type { Change } from "../history/record";

/**
 * A trigger point's test questions as GET …/test_questions answers them, in the order they were
 * added, without their save times (a save that changes nothing is not a change).
 */
async function questionsOf(appId: number, triggerPoint: string, db: Executor) {
  const rows = await db
    .select({
      id: testQuestions.id,
      question: testQuestions.question,
      expectSource: testQuestions.expectSource,
      expectText: testQuestions.expectText,
      expectOutcome: testQuestions.expectOutcome,
    })
    .from(testQuestions)
    .where(and(eq(testQuestions.appId, appId), eq(testQuestions.triggerPoint, triggerPoint)))
    .orderBy(asc(testQuestions.id));
  return rows.map((row) => ({
    id: row.id,
    question: row.question,
    expect_source: row.expectSource,
    expect_text: row.expectText,
    expect_outcome: row.expectOutcome as TestQuestion["expect_outcome"],
  }));
}

type RecordedQuestion = Awaited<ReturnType<typeof questionsOf>>[number];

/**
 * Test questions added, changed, moved, deleted or imported: one target per trigger point they
 * are asked of (a question moved to another agent changes both), each that trigger point's list.
 */
export const testQuestionsChange = (appId: number, triggerPoints: string[]): Change => ({
  appId,
  kind: "test_questions",
  targets: [...new Set(triggerPoints)],
  read: (triggerPoint, db) => questionsOf(appId, triggerPoint, db),
  summary: (triggerPoint, before, after) => {
    const { added, changed, removed } = listChanges<RecordedQuestion>(before, after, (q) => String(q.id));
    const counted = [
      [added.length, "added"],
      [changed.length, "changed"],
      [removed.length, "removed"],
    ] as const;
    const parts = counted.filter(([n]) => n).map(([n, what]) => `${n} ${what}`);
    return `Test Questions of ${triggerPointName(triggerPoint)}: ${parts.join(", ") || "changed"}`;
  },
});
