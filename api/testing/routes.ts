import { and, asc, count, desc, eq, gt, ilike, inArray, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  IdParam,
  TEST_QUESTIONS_IMPORT_MAX,
  TestGate,
  TestGateQuery,
  TestQuestionCreated,
  TestQuestion,
  TestQuestionCreate,
  TestQuestionInput,
  TestQuestionsImport,
  TestQuestionsImported,
  TestQuestionsList,
  TestQuestionsQuery,
  TestRun,
  TestRunBody,
  TestRunQueued,
  TestRunsList,
  TestRunsQuery,
  type ChatOutcome,
} from "@contract";
import { requireApp } from "../auth/permissions";
import { clientScope } from "../controls/scope";
import { messages, testQuestions, testResults, testRuns } from "../db/schema";
import type { ApiDeps } from "../deps";
import { withFileLinks } from "../files/file-links";
import { HttpError, badRequest, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { containing } from "../db/like";
import type { Executor } from "../controls/scope";
import { recordChange } from "../history/record";
import { placeNamesOf } from "../history/readable/places";
import { testQuestionChange, testQuestionsImportChange, toQuestion } from "./questions-change";
import { judge, plain } from "./run-tests";
import { startTestRun } from "./waiting-runs";

const AppParams = z.object({ appId: IdParam });

export const NO_QUESTIONS_TO_RUN = "This agent has no test questions to run: add one first";
const QuestionParams = z.object({ appId: IdParam, id: IdParam });
const Deleted = z.object({ message: z.string() });

type RunRow = typeof testRuns.$inferSelect;

const toRunSummary = (row: RunRow, questionsNow: ReadonlyMap<string, number>) => {
  const finished = row.status === "done" || row.status === "failed";
  return {
    id: row.id,
    trigger_point: row.triggerPoint,
    environment: row.environment as "stage" | "prod",
    status: row.status as "queued" | "running" | "done" | "failed",
    trigger: row.trigger,
    passed: row.passed,
    failed: row.failed,
    total: finished
      ? row.passed + row.failed
      : (row.questions ?? Math.max(questionsNow.get(row.triggerPoint) ?? 0, row.passed + row.failed)),
    created_at: row.createdAt.toISOString(),
    start_after: row.startAfter.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
};

/** How many test questions each trigger point of the client has now: what a waiting run will ask. */
async function questionCounts(appId: number, runs: RunRow[], deps: Pick<ApiDeps, "db">) {
  const counted = (run: RunRow) => run.status === "done" || run.status === "failed" || run.questions !== null;
  if (runs.every(counted)) return new Map<string, number>();
  const rows = await deps.db
    .select({ triggerPoint: testQuestions.triggerPoint, questions: count() })
    .from(testQuestions)
    .where(eq(testQuestions.appId, appId))
    .groupBy(testQuestions.triggerPoint);
  return new Map(rows.map((row) => [row.triggerPoint, Number(row.questions)]));
}

// Questions sort as a reader expects (any case together), whatever the database's collation.
const QUESTION_ORDER = {
  question: sql`lower(${testQuestions.question})`,
  expect_outcome: testQuestions.expectOutcome,
  updated_at: testQuestions.updatedAt,
} as const;

/** A trigger point of the client (or Default), or a 400 naming the field. */
async function requireTriggerPoint(appId: number, triggerPoint: string, deps: Pick<ApiDeps, "db">) {
  const { triggerPoints } = await clientScope(appId, deps.db);
  if (!triggerPoints.has(triggerPoint))
    throw badRequest("This client has no agent with that trigger point", {
      trigger_point: ["This client has no agent with that trigger point"],
    });
}

/** The first key of the advisory lock adding or changing a client's test questions holds (the second is the client's id). */
const TEST_QUESTIONS_LOCK = 4_210_519;

/**
 * One change of a client's test questions at a time, held to the end of the transaction: taken
 * before History reads the questions, so a change records only its own questions.
 */
const lockTestQuestions = (appId: number, db: Executor) =>
  db.execute(sql`select pg_advisory_xact_lock(${TEST_QUESTIONS_LOCK}, ${appId})`);

/**
 * Refuses (409, beside `question`) a question its trigger point already has, compared as a reader
 * would (case, spacing and typographic quotes aside), other than the one being changed: a second
 * click of "Add as test question" adds nothing. Run under TEST_QUESTIONS_LOCK, so two adds at once
 * cannot both pass. An import leaves such rows out the same way.
 */
async function refuseSecondCopy(
  appId: number,
  triggerPoint: string,
  question: string,
  changing: number | null,
  deps: Pick<ApiDeps, "db">,
) {
  await lockTestQuestions(appId, deps.db);
  const kept = await deps.db
    .select({ id: testQuestions.id, question: testQuestions.question })
    .from(testQuestions)
    .where(and(eq(testQuestions.appId, appId), eq(testQuestions.triggerPoint, triggerPoint)));
  const wanted = plain(question);
  if (kept.some((row) => row.id !== changing && plain(row.question) === wanted)) {
    // Named as every screen names the agent, not by its trigger point's code.
    const placeName = await placeNamesOf(appId, deps.db);
    const message = `This question is already a test question of ${placeName(triggerPoint)}`;
    throw new HttpError(409, message, { question: [message] });
  }
}

const PASSES_THE_RATED_DOWN =
  "The answer rated unhelpful would pass this test: choose the source a right answer cites, or type a text it must contain";

/**
 * A test made from an answer visitors rated down must fail on that answer: one that passes on it
 * (the outcome it had and nothing else, as the form is prefilled) stays green while the same
 * answer is given. The answer is looked for among the client's own messages only: another
 * client's is as unknown as one that never was.
 */
async function refusePassingOnRatedDown(
  appId: number,
  question: Pick<TestQuestionCreate, "from_answer"> & {
    expect_source: string | null;
    expect_text: string | null;
    expect_outcome: string | null;
  },
  deps: Pick<ApiDeps, "db">,
) {
  if (question.from_answer === undefined) return;
  const [answer] = await deps.db
    .select({
      text: messages.text,
      outcome: messages.outcome,
      sources: messages.sources,
      trace: messages.trace,
      rating: messages.rating,
    })
    .from(messages)
    .where(and(eq(messages.appId, appId), eq(messages.id, question.from_answer), eq(messages.role, "assistant")));
  if (!answer) throw notFound("This answer is not in the client's conversations");
  if (answer.rating !== "down" || !answer.outcome) return;
  const verdict = judge(
    { expectSource: question.expect_source, expectText: question.expect_text, expectOutcome: question.expect_outcome },
    { ...answer, outcome: answer.outcome as ChatOutcome, trace: answer.trace ?? undefined },
  );
  if (verdict.passed) throw badRequest(PASSES_THE_RATED_DOWN, { expect_source: [PASSES_THE_RATED_DOWN] });
}

async function requireQuestion(appId: number, id: number, deps: Pick<ApiDeps, "db">) {
  const [row] = await deps.db
    .select()
    .from(testQuestions)
    .where(and(eq(testQuestions.appId, appId), eq(testQuestions.id, id)));
  if (!row) throw notFound("Test question not found");
  return row;
}

type ResultRow = typeof testResults.$inferSelect;

/**
 * The questions that failed in `run` but passed in the previous finished run of the same agent and
 * environment, and those that passed now but not then (questions asked in both runs only).
 */
async function changesSincePrevious(run: RunRow, results: ResultRow[], deps: Pick<ApiDeps, "db">) {
  const [previous] = await deps.db
    .select({ id: testRuns.id })
    .from(testRuns)
    .where(
      and(
        eq(testRuns.appId, run.appId),
        eq(testRuns.triggerPoint, run.triggerPoint),
        eq(testRuns.environment, run.environment),
        eq(testRuns.status, "done"),
        lt(testRuns.id, run.id),
      ),
    )
    .orderBy(desc(testRuns.id))
    .limit(1);
  if (!previous) return null;
  const before = new Map(
    (
      await deps.db
        .select({ questionId: testResults.questionId, passed: testResults.passed })
        .from(testResults)
        .where(eq(testResults.runId, previous.id))
    ).map((r) => [r.questionId, r.passed]),
  );
  const kept = results.filter((r): r is ResultRow & { questionId: number } => r.questionId !== null);
  const asked = kept.filter((r) => before.has(r.questionId));
  // Added since the previous run: a failure among them is new too, though nothing "newly" failed.
  const added = kept.filter((r) => !before.has(r.questionId));
  const failing = (r: ResultRow & { questionId: number }) => ({
    question_id: r.questionId,
    question: r.question,
    reason: r.reason,
  });
  return {
    previous_run_id: previous.id,
    newly_failing: asked.filter((r) => before.get(r.questionId) && !r.passed).map(failing),
    newly_passing: asked
      .filter((r) => !before.get(r.questionId) && r.passed)
      .map((r) => ({ question_id: r.questionId, question: r.question })),
    new_questions: added.length,
    new_failing: added.filter((r) => !r.passed).map(failing),
  };
}

/** Test questions per agent and their runs: what an operator checks before publishing a change. */
export function testingRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/apps/:appId/test_questions",
    tag: "Testing",
    summary: "The client's test questions (of one trigger point when given), paged and searchable by question.",
    params: AppParams,
    query: TestQuestionsQuery,
    response: TestQuestionsList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      const conditions: SQL[] = [eq(testQuestions.appId, params.appId)];
      if (query.trigger_point !== undefined) conditions.push(eq(testQuestions.triggerPoint, query.trigger_point));
      if (query.search) conditions.push(ilike(testQuestions.question, containing(query.search)));
      const where = and(...conditions);
      const [{ total }] = await deps.db.select({ total: count() }).from(testQuestions).where(where);
      const direction = query.order === "desc" ? desc : asc;
      const order = query.sort
        ? [direction(QUESTION_ORDER[query.sort]), direction(testQuestions.id)]
        : [asc(testQuestions.id)];
      const rows = await deps.db
        .select()
        .from(testQuestions)
        .where(where)
        .orderBy(...order)
        .limit(query.page_size)
        .offset((query.page - 1) * query.page_size);
      return { data: rows.map(toQuestion), total: Number(total) };
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/test_questions",
    tag: "Testing",
    status: 201,
    summary:
      "Adds a test question: the question, its trigger point and what the answer must do (a source cited, a text contained, an outcome). A question its trigger point already has (case and spacing aside) is refused, 409. Made from a conversation's answer (`from_answer`, its message id) that visitors rated down, a test that would pass on that very answer is refused, 400.",
    params: AppParams,
    body: TestQuestionCreate,
    response: TestQuestionCreated,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      await requireTriggerPoint(params.appId, body.trigger_point, deps);
      await refusePassingOnRatedDown(params.appId, body, deps);
      return deps.db.transaction(async (tx) => {
        await lockTestQuestions(params.appId, tx);
        const change = testQuestionChange(params.appId, null);
        const { result } = await recordChange({ db: tx }, caller, change, async (db) => {
          await refuseSecondCopy(params.appId, body.trigger_point, body.question, null, { db });
          const [row] = await db
            .insert(testQuestions)
            .values({
              appId: params.appId,
              triggerPoint: body.trigger_point,
              question: body.question,
              expectSource: body.expect_source,
              expectText: body.expect_text,
              expectOutcome: body.expect_outcome,
            })
            .returning({ id: testQuestions.id });
          return { id: row.id };
        });
        return result;
      });
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/test_questions/import",
    tag: "Testing",
    status: 201,
    summary: `Adds up to ${TEST_QUESTIONS_IMPORT_MAX} test questions of one trigger point at once (a CSV import): all of them, or none when a row is refused.`,
    params: AppParams,
    body: TestQuestionsImport,
    response: TestQuestionsImported,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      await requireTriggerPoint(params.appId, body.trigger_point, deps);
      // One change holding the questions the file added, however many. A question the agent
      // already has (compared as a reader would, as an add compares it), or one the file repeats,
      // is left out: importing an export back adds nothing twice.
      const created = await deps.db.transaction(async (tx) => {
        await lockTestQuestions(params.appId, tx);
        const kept = await tx
          .select({ question: testQuestions.question })
          .from(testQuestions)
          .where(and(eq(testQuestions.appId, params.appId), eq(testQuestions.triggerPoint, body.trigger_point)));
        const known = new Set(kept.map((row) => plain(row.question)));
        const fresh = body.questions.filter((question) => {
          const key = plain(question.question);
          if (known.has(key)) return false;
          known.add(key);
          return true;
        });
        if (!fresh.length) return 0;
        const change = await testQuestionsImportChange(params.appId, body.trigger_point, tx);
        await recordChange({ db: tx }, caller, change, (db) =>
          db.insert(testQuestions).values(
            fresh.map((question) => ({
              appId: params.appId,
              triggerPoint: body.trigger_point,
              question: question.question,
              expectSource: question.expect_source,
              expectText: question.expect_text,
              expectOutcome: question.expect_outcome,
            })),
          ),
        );
        return fresh.length;
      });
      return { created, existing: body.questions.length - created };
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/test_questions/:id",
    tag: "Testing",
    summary: "One test question, as it is stored now (what an edit opened earlier is compared with).",
    params: QuestionParams,
    response: TestQuestion,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      return toQuestion(await requireQuestion(params.appId, params.id, deps));
    },
  });

  route({
    method: "put",
    path: "/v1/apps/:appId/test_questions/:id",
    tag: "Testing",
    summary:
      "Changes a test question; into one its trigger point already has (case and spacing aside) is refused, 409.",
    params: QuestionParams,
    body: TestQuestionInput,
    response: TestQuestionCreated,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      await requireQuestion(params.appId, params.id, deps);
      await requireTriggerPoint(params.appId, body.trigger_point, deps);
      await deps.db.transaction(async (tx) => {
        await lockTestQuestions(params.appId, tx);
        const change = testQuestionChange(params.appId, params.id);
        await recordChange({ db: tx }, caller, change, async (db) => {
          await refuseSecondCopy(params.appId, body.trigger_point, body.question, params.id, { db });
          await db
            .update(testQuestions)
            .set({
              triggerPoint: body.trigger_point,
              question: body.question,
              expectSource: body.expect_source,
              expectText: body.expect_text,
              expectOutcome: body.expect_outcome,
              updatedAt: new Date(),
            })
            .where(eq(testQuestions.id, params.id));
        });
      });
      return { id: params.id };
    },
  });

  route({
    method: "delete",
    path: "/v1/apps/:appId/test_questions/:id",
    tag: "Testing",
    summary: "Deletes a test question (its past results keep the question as it was asked).",
    params: QuestionParams,
    response: Deleted,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      await deps.db.transaction(async (tx) => {
        await lockTestQuestions(params.appId, tx);
        await requireQuestion(params.appId, params.id, { db: tx });
        await recordChange({ db: tx }, caller, testQuestionChange(params.appId, params.id), async (db) => {
          await db.delete(testQuestions).where(eq(testQuestions.id, params.id));
        });
      });
      return { message: "Test question deleted" };
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/test_runs",
    tag: "Testing",
    status: 202,
    summary:
      "Starts a run of a trigger point's test questions in an environment (stage or prod) now; " +
      "a run of the same still waiting is started instead of queueing a second. A trigger point without test questions is refused, 400.",
    params: AppParams,
    body: TestRunBody,
    response: TestRunQueued,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      await requireTriggerPoint(params.appId, body.trigger_point, deps);
      // A run of no question finished "done" at once, green on every screen, and stood as the agent's
      // last stage run in Push to production's comparison: a pass nothing was asked for.
      const [{ questions }] = await deps.db
        .select({ questions: count() })
        .from(testQuestions)
        .where(and(eq(testQuestions.appId, params.appId), eq(testQuestions.triggerPoint, body.trigger_point)));
      if (!Number(questions)) throw badRequest(NO_QUESTIONS_TO_RUN);
      const key = { appId: params.appId, triggerPoint: body.trigger_point, environment: body.environment };
      return { id: await startTestRun(key, "manual", deps) };
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/test_runs",
    tag: "Testing",
    summary:
      "The client's test runs, the latest started first (the last 100), of one trigger point and environment when given.",
    params: AppParams,
    query: TestRunsQuery,
    response: TestRunsList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      const conditions: SQL[] = [eq(testRuns.appId, params.appId)];
      if (query.trigger_point !== undefined) conditions.push(eq(testRuns.triggerPoint, query.trigger_point));
      if (query.environment) conditions.push(eq(testRuns.environment, query.environment));
      const rows = await deps.db
        .select()
        .from(testRuns)
        .where(and(...conditions))
        // By when each started, as the table's first column says: a run held back by the
        // one-a-minute rule starts after one asked for later and started at once.
        .orderBy(desc(sql`greatest(${testRuns.createdAt}, ${testRuns.startAfter})`), desc(testRuns.id))
        .limit(100);
      const questionsNow = await questionCounts(params.appId, rows, deps);
      return { data: rows.map((row) => toRunSummary(row, questionsNow)) };
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/test_gate",
    tag: "Testing",
    summary:
      "For one trigger point: its last finished stage run beside its last finished prod run, the questions stage fails that prod passes, and a newer run of either still queued or running, if any.",
    params: AppParams,
    query: TestGateQuery,
    response: TestGate,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      /** The agent's latest run in the environment with one of these statuses (after run `afterId`, if given). */
      const latestRun = async (environment: "stage" | "prod", statuses: string[], afterId?: number) =>
        (
          await deps.db
            .select()
            .from(testRuns)
            .where(
              and(
                eq(testRuns.appId, params.appId),
                eq(testRuns.triggerPoint, query.trigger_point),
                eq(testRuns.environment, environment),
                inArray(testRuns.status, statuses),
                afterId === undefined ? undefined : gt(testRuns.id, afterId),
              ),
            )
            .orderBy(desc(testRuns.id))
            .limit(1)
        )[0] ?? null;
      const [stage, prod] = [await latestRun("stage", ["done"]), await latestRun("prod", ["done"])];
      let breaks: { question_id: number; question: string; reason: string | null }[] = [];
      if (stage && prod) {
        const passedInProd = new Set(
          (
            await deps.db
              .select({ questionId: testResults.questionId })
              .from(testResults)
              .where(and(eq(testResults.runId, prod.id), eq(testResults.passed, true)))
          ).map((r) => r.questionId),
        );
        breaks = (
          await deps.db
            .select()
            .from(testResults)
            .where(and(eq(testResults.runId, stage.id), eq(testResults.passed, false)))
            .orderBy(asc(testResults.id))
        )
          .filter(
            (r): r is ResultRow & { questionId: number } => r.questionId !== null && passedInProd.has(r.questionId),
          )
          .map((r) => ({ question_id: r.questionId, question: r.question, reason: r.reason }));
      }
      // A change (or a push) made since the last finished run of an environment has its run waiting
      // or asking: said, since until it is done the comparison is of that environment as it answered
      // before.
      const [stagePending, prodPending] = [
        await latestRun("stage", ["queued", "running"], stage?.id),
        await latestRun("prod", ["queued", "running"], prod?.id),
      ];
      const pending = [stagePending, prodPending].filter((run) => run !== null);
      const counts = await questionCounts(params.appId, pending, deps);
      return {
        stage: stage && toRunSummary(stage, counts),
        prod: prod && toRunSummary(prod, counts),
        stage_fails_prod_passes: breaks,
        stage_pending: stagePending && toRunSummary(stagePending, counts),
        prod_pending: prodPending && toRunSummary(prodPending, counts),
      };
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/test_runs/:id",
    tag: "Testing",
    summary:
      "One test run: its status, tally and every question's result (passed or why not, the answer, its outcome and sources; an uploaded file's link signed anew, or none for a file deleted since).",
    params: QuestionParams,
    response: TestRun,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      const [run] = await deps.db
        .select()
        .from(testRuns)
        .where(and(eq(testRuns.appId, params.appId), eq(testRuns.id, params.id)));
      if (!run) throw notFound("Test run not found");
      const results = await deps.db
        .select()
        .from(testResults)
        .where(eq(testResults.runId, run.id))
        .orderBy(asc(testResults.questionId), asc(testResults.id));
      // A file's link stored with the answer expires and the file may be gone: read as a transcript reads it.
      const cited = await withFileLinks(params.appId, results, deps);
      return {
        ...toRunSummary(run, await questionCounts(params.appId, [run], deps)),
        error: run.error,
        changes: run.status === "done" ? await changesSincePrevious(run, results, deps) : null,
        results: cited.map((r) => ({
          question_id: r.questionId,
          question: r.question,
          passed: r.passed,
          reason: r.reason,
          outcome: r.outcome as ChatOutcome,
          answer: r.answer,
          sources: r.sources,
          lacked_words: r.lacked,
        })),
      };
    },
  });
}
