import { z } from "zod";
import { CHAT_OUTCOMES } from "./values/chat";
import { Id, pageNumber } from "./common";
import { ConversationSource } from "./conversations";
import { blankIfInvisible } from "./text";
import {
  TEST_ENVIRONMENTS,
  TEST_QUESTION_MAX_CHARS,
  TEST_QUESTIONS_IMPORT_MAX,
  TEST_QUESTION_SORTS,
  TEST_RUN_STATUSES,
} from "./values/testing";
export * from "./values/testing";

/**
 * Test questions and their runs (issue: know before you publish). A test question is asked of one
 * trigger point (agent) with what its answer must do: cite a source (a page URL or a file name),
 * contain a text, and/or come out a given way.
 */

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `Keep the ${label} to at most ${max.toLocaleString("en")} characters`)
    .optional()
    .nullable()
    .transform((value) => value || null);

const TestQuestionFields = z.object({
  trigger_point: z
    .string({ error: "This field is required" })
    .trim()
    .max(100, "Keep the trigger point to at most 100 characters")
    .default(""),
  question: z
    .string({ error: "This field is required" })
    .trim()
    .overwrite(blankIfInvisible)
    .min(1, "This field is required")
    .max(
      TEST_QUESTION_MAX_CHARS,
      `Keep the question to at most ${TEST_QUESTION_MAX_CHARS.toLocaleString("en")} characters`,
    ),
  expect_source: optionalText(2000, "expected source"),
  expect_text: optionalText(500, "expected text"),
  expect_outcome: z
    .enum(CHAT_OUTCOMES, { error: `The outcome must be one of ${CHAT_OUTCOMES.join(", ")}` })
    .optional()
    .nullable()
    .transform((value) => value ?? null),
});
/** A question must expect something; the message sits beside the expected text. */
const expectsSomething = (input: {
  expect_source: string | null;
  expect_text: string | null;
  expect_outcome: string | null;
}) => Boolean(input.expect_source || input.expect_text || input.expect_outcome);
const EXPECTS_NOTHING = {
  message: "Say what the answer must do: a source, a text or an outcome",
  path: ["expect_text"],
};
export const TestQuestionInput = TestQuestionFields.refine(expectsSomething, EXPECTS_NOTHING);
export type TestQuestionInput = z.input<typeof TestQuestionInput>;
/**
 * A new test question, and the answer of a conversation it was made from when it was (its
 * message id): when visitors rated that answer down, a test that passes on it is refused, as it
 * would stay green while the same answer is given.
 */
export const TestQuestionCreate = TestQuestionFields.extend({ from_answer: Id.optional() }).refine(
  expectsSomething,
  EXPECTS_NOTHING,
);
export type TestQuestionCreate = z.input<typeof TestQuestionCreate>;

export const TestQuestion = z.object({
  id: z.number().int(),
  trigger_point: z.string(),
  question: z.string(),
  expect_source: z.string().nullable(),
  expect_text: z.string().nullable(),
  expect_outcome: z.enum(CHAT_OUTCOMES).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TestQuestion = z.infer<typeof TestQuestion>;

export const TestQuestionsQuery = z.object({
  trigger_point: z.string().trim().max(100).optional(),
  page: pageNumber(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
  search: z.string().trim().max(200).optional(),
  /** The column to order by (then by id); the order they were added when absent. */
  sort: z.enum(TEST_QUESTION_SORTS).optional(),
  order: z.enum(["asc", "desc"]).default("asc"),
});
export const TestQuestionsList = z.object({ data: z.array(TestQuestion), total: z.number().int() });
export const TestQuestionCreated = z.object({ id: z.number().int() });

/**
 * Many questions of one trigger point at once. Each row is checked as a single question is; one
 * bad row refuses the whole import, its messages under `questions.{row}.{field}`.
 */
export const TestQuestionsImport = z.object({
  trigger_point: z.string().trim().max(100, "Keep the trigger point to at most 100 characters").default(""),
  questions: z
    .array(TestQuestionFields.omit({ trigger_point: true }).refine(expectsSomething, EXPECTS_NOTHING))
    .min(1, "There are no questions to import")
    .max(TEST_QUESTIONS_IMPORT_MAX, `Import at most ${TEST_QUESTIONS_IMPORT_MAX} questions at once`),
});
export type TestQuestionsImport = z.input<typeof TestQuestionsImport>;
/** What an import added, and the rows it left out as questions the agent already has (or the file repeats). */
export const TestQuestionsImported = z.object({ created: z.number().int(), existing: z.number().int() });

export const TestRunBody = z.object({
  trigger_point: z.string().trim().max(100).default(""),
  environment: z.enum(TEST_ENVIRONMENTS, { error: "The environment must be stage or prod" }),
});
export const TestRunsQuery = z.object({
  trigger_point: z.string().trim().max(100).optional(),
  environment: z.enum(TEST_ENVIRONMENTS).optional(),
});

export const TestResult = z.object({
  question_id: z.number().int().nullable(),
  question: z.string(),
  passed: z.boolean(),
  /** Why it failed ("source not cited; text missing"), or null. */
  reason: z.string().nullable(),
  outcome: z.enum(CHAT_OUTCOMES),
  answer: z.string(),
  /**
   * As a transcript's answer's: a web page's address, or for an uploaded file a link signed when the
   * run is read, and none when the file was deleted since (`file_deleted`).
   */
  sources: z.array(ConversationSource),
  /**
   * Its key words no passage of the store held when it was asked, weightiest first: often why it
   * failed. Empty for results recorded before they were kept.
   */
  lacked_words: z.array(z.string()),
});
export const TestRunSummary = z.object({
  id: z.number().int(),
  trigger_point: z.string(),
  environment: z.enum(TEST_ENVIRONMENTS),
  status: z.enum(TEST_RUN_STATUSES),
  /** What queued it: "manual" for a run asked for here. */
  trigger: z.string(),
  passed: z.number().int(),
  failed: z.number().int(),
  /** Questions the run asks: its tally once done; while it waits or runs, the agent's questions now. */
  total: z.number().int(),
  created_at: z.string(),
  /** When it may start: later than its creation for a run a change queued within a minute of the agent's last run. */
  start_after: z.string(),
  finished_at: z.string().nullable(),
});
/** What changed since the previous finished run of the same agent and environment (null: none before, or not done). */
const FailingQuestion = z.object({
  question_id: z.number().int(),
  question: z.string(),
  reason: z.string().nullable(),
});
export const TestRunChanges = z.object({
  previous_run_id: z.number().int(),
  newly_failing: z.array(FailingQuestion),
  newly_passing: z.array(z.object({ question_id: z.number().int(), question: z.string() })),
  /** Questions the previous run did not ask (added since): how many … */
  new_questions: z.number().int(),
  /** … and those of them that fail. */
  new_failing: z.array(FailingQuestion),
});
export const TestRun = TestRunSummary.extend({
  results: z.array(TestResult),
  changes: TestRunChanges.nullable(),
  /** Why a failed run stopped. */
  error: z.string().nullable(),
});
export const TestRunsList = z.object({ data: z.array(TestRunSummary) });
export const TestRunQueued = z.object({ id: z.number().int() });

/**
 * The production gate's comparison for one agent: its last finished stage run beside its last
 * finished prod run, and the questions stage fails that prod passes (what a push to production
 * would break).
 */
export const TestGateQuery = z.object({ trigger_point: z.string().trim().max(100).default("") });
export const TestGate = z.object({
  stage: TestRunSummary.nullable(),
  prod: TestRunSummary.nullable(),
  stage_fails_prod_passes: z.array(
    z.object({ question_id: z.number().int(), question: z.string(), reason: z.string().nullable() }),
  ),
  /**
   * A stage run newer than `stage` still queued or running (a change made since, its run waiting for
   * its minute): until it is done, `stage` shows what stage answered before that change.
   */
  stage_pending: TestRunSummary.nullable(),
  /**
   * A prod run newer than `prod` still queued or running (a change made since, a push to
   * production): until it is done, `prod` shows what production answered before it.
   */
  prod_pending: TestRunSummary.nullable(),
});
export type TestRun = z.infer<typeof TestRun>;
export type TestRunSummary = z.infer<typeof TestRunSummary>;
export type TestGate = z.infer<typeof TestGate>;
