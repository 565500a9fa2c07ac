import { and, asc, eq, gt, max } from "drizzle-orm";
import type { TestQuestion } from "@contract";
import type { Executor } from "../controls/scope";
import { testQuestions } from "../db/schema";
import type { Change } from "../history/record";

/*
 * Test questions in the History. A question added, changed, moved or deleted is recorded on its
 * own (its id is the target, its state the question), as websites and agents are: a change of one
 * question stores one question, however many its agent has. An import is one change whose state
 * is the questions it added, so it stores what the file held, once.
 */

type QuestionRow = typeof testQuestions.$inferSelect;

/** A test question as GET …/test_questions/{id} answers it. */
export const toQuestion = (row: QuestionRow): TestQuestion => ({
  id: row.id,
  trigger_point: row.triggerPoint,
  question: row.question,
  expect_source: row.expectSource,
  expect_text: row.expectText,
  expect_outcome: row.expectOutcome as TestQuestion["expect_outcome"],
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** A test question as recorded: without its save times (a save that changes nothing is not a change). */
const recorded = (row: QuestionRow) => {
  const { created_at: _created, updated_at: _updated, ...question } = toQuestion(row);
  return question;
};

type RecordedQuestion = ReturnType<typeof recorded>;

async function questionOf(appId: number, id: number, db: Executor) {
  const [row] = await db
    .select()
    .from(testQuestions)
    .where(and(eq(testQuestions.appId, appId), eq(testQuestions.id, id)));
  return row ? recorded(row) : null;
}

/** A question added (its id known from the save's result), changed, moved to another agent, or deleted. */
export const testQuestionChange = (appId: number, id: number | null): Change<{ id: number } | void> => ({
  appId,
  kind: "test_questions",
  targets: id === null ? [] : [String(id)],
  created: (result) => (result ? [String(result.id)] : []),
  read: (target, db) => questionOf(appId, Number(target), db),
  summary: (_, before, after, placeName) => {
    const was = before as RecordedQuestion | null;
    const now = after as RecordedQuestion | null;
    const of = (question: RecordedQuestion) => `Test Questions of ${placeName(question.trigger_point)}`;
    if (!was) return `${of(now!)}: 1 added`;
    if (!now) return `${of(was)}: 1 removed`;
    if (was.trigger_point !== now.trigger_point)
      return `Test Questions: 1 moved from ${placeName(was.trigger_point)} to ${placeName(now.trigger_point)}`;
    return `${of(now)}: 1 changed`;
  },
});

/** What an import recorded: its trigger point and the questions it added. */
export interface RecordedImport {
  trigger_point: string;
  questions: Omit<RecordedQuestion, "trigger_point">[];
}

/**
 * Questions imported into one trigger point. Run under the client's test-question lock, taken
 * before this reads the client's highest question id: the questions of the trigger point above it
 * afterwards are the import's own.
 */
export async function testQuestionsImportChange(appId: number, triggerPoint: string, db: Executor): Promise<Change> {
  const [{ highest }] = await db
    .select({ highest: max(testQuestions.id) })
    .from(testQuestions)
    .where(eq(testQuestions.appId, appId));
  const after = highest ?? 0;
  return {
    appId,
    kind: "test_questions",
    targets: [],
    // One target per import, never read before it (an import adds questions, it changes none).
    created: () => [`import after ${after} into ${triggerPoint || "default"}`],
    read: async (_, tx): Promise<RecordedImport> => {
      const rows = await tx
        .select()
        .from(testQuestions)
        .where(
          and(
            eq(testQuestions.appId, appId),
            eq(testQuestions.triggerPoint, triggerPoint),
            gt(testQuestions.id, after),
          ),
        )
        .orderBy(asc(testQuestions.id));
      return {
        trigger_point: triggerPoint,
        questions: rows.map((row) => {
          const { trigger_point: _, ...question } = recorded(row);
          return question;
        }),
      };
    },
    summary: (_, __, state, placeName) =>
      `Test Questions of ${placeName(triggerPoint)}: ${(state as RecordedImport).questions.length} added`,
  };
}
