import { and, asc, eq, sql } from "drizzle-orm";
import { failedJobLine } from "../jobs/shown-output";
import type { PgInsertValue } from "drizzle-orm/pg-core";
import type { ChatOutcome, ChatSource } from "@contract";
import { respond } from "../chat/responder";
import { lackedWordsOf } from "../chat/trace";
import { clientScope } from "../controls/scope";
import { storageNameOf } from "../files/store";
import { testQuestions, testResults, testRuns } from "../db/schema";
import type { WorkerDeps } from "../deps";

type TestQuestionRow = typeof testQuestions.$inferSelect;

/** Words compared as a reader would: case, runs of whitespace and typographic quotes aside. */
export const plain = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, " ")
    .trim();
/**
 * An address as two spellings of it compare: without its fragment and trailing slashes, in one case,
 * and with percent-encoding undone, so that `/zh/学费` typed in a test question is the `/zh/%E5%AD%A6…`
 * a page was stored under.
 */
const plainUrl = (url: string) => {
  const bare = url.trim().replace(/#.*$/, "").replace(/\/+$/, "");
  let decoded = bare;
  try {
    decoded = decodeURI(bare);
  } catch {
    // Not valid percent-encoding: compared as written.
  }
  return decoded.normalize("NFC").toLowerCase();
};

/**
 * Whether a cited source is the one expected: the same page address, or a file by its name as the
 * Files page shows it (a file's source is titled by its name without ".pdf"), its title, or the
 * name its stored copy was given.
 */
export function citesSource(sources: ChatSource[], expected: string) {
  const wanted = plainUrl(expected);
  const isAddress = /^https?:\/\//i.test(expected.trim());
  const fileTitle = plain(expected.trim().replace(/\.pdf$/i, ""));
  const storedName = `/${storageNameOf(expected.trim()).toLowerCase()}`;
  return sources.some((source) => {
    if (plainUrl(source.url) === wanted || plain(source.title) === plain(expected)) return true;
    if (isAddress) return false;
    if (plain(source.title) === fileTitle) return true;
    // A file's link is signed and changes: its name is in the link's path.
    const path = decodeURIComponent(new URL(source.url, "http://file.invalid").pathname).toLowerCase();
    return path.endsWith(`/${expected.trim().toLowerCase()}`) || path.endsWith(storedName);
  });
}

/** A question's verdict: passed, or the reasons it did not ("source not cited; text missing"). */
export function judge(
  question: Pick<TestQuestionRow, "expectSource" | "expectText" | "expectOutcome">,
  answer: {
    text: string;
    outcome: ChatOutcome;
    sources: ChatSource[];
    trace?: { parts?: { question: string; outcome: ChatOutcome }[] };
  },
) {
  const reasons: string[] = [];
  if (question.expectOutcome && answer.outcome !== question.expectOutcome)
    reasons.push(`outcome differs (${answer.outcome}, expected ${question.expectOutcome})`);
  // A message of several questions is answered when any of them is; a test that expects an answer
  // (one made from a follow-up's fallback, prefixed with the question it leaned on) passes only
  // when none of them got the fallback.
  else if (question.expectOutcome && question.expectOutcome !== "fallback") {
    const unanswered = (answer.trace?.parts ?? []).findIndex((part) => part.outcome === "fallback");
    if (unanswered >= 0) reasons.push(`question ${unanswered + 1} got the fallback`);
  }
  if (question.expectSource && !citesSource(answer.sources, question.expectSource)) reasons.push("source not cited");
  if (question.expectText && !plain(answer.text).includes(plain(question.expectText))) reasons.push("text missing");
  return { passed: reasons.length === 0, reason: reasons.length ? reasons.join("; ") : null };
}

/** The trigger point a run is filed under now; a run that is gone ends its own asking. */
async function triggerPointOf(runId: number, deps: WorkerDeps) {
  const [run] = await deps.db
    .select({ triggerPoint: testRuns.triggerPoint })
    .from(testRuns)
    .where(eq(testRuns.id, runId));
  if (!run) throw new Error("The run was deleted");
  return run.triggerPoint;
}

/**
 * A question asked under the trigger point its run is filed under now: an agent renamed meanwhile
 * took its run and settings to its new code, and the old one holds none of them any more. A rename
 * while the question was asked has it asked again under the new code.
 */
async function askAsFiledNow(
  runId: number,
  input: Omit<Parameters<typeof respond>[0], "triggerPoint">,
  deps: WorkerDeps,
) {
  let triggerPoint = await triggerPointOf(runId, deps);
  for (;;) {
    const answer = await respond({ ...input, triggerPoint }, deps);
    const now = await triggerPointOf(runId, deps);
    if (now === triggerPoint) return answer;
    triggerPoint = now;
  }
}

/** Questions asked at once: the responder's statements queue on the database anyway. */
const AT_ONCE = 4;
/** Results kept per write while a run goes on. */
const SAVE_EVERY = 25;

/**
 * A test run: every test question of the run's agent asked through the responder the widget uses,
 * in the run's environment (the same knowledge filter as the chat), nothing stored as a visitor's
 * conversation. Each result is kept as asked; the run ends done with its tally, or failed with why.
 */
export async function runTests(runId: number, deps: WorkerDeps) {
  const [run] = await deps.db
    .update(testRuns)
    .set({ status: "running" })
    .where(and(eq(testRuns.id, runId), eq(testRuns.status, "queued")))
    .returning();
  if (!run) return { skipped: "not queued (already run, or gone)" };
  try {
    const { clientType } = await clientScope(run.appId, deps.db);
    const questions = await deps.db
      .select()
      .from(testQuestions)
      .where(and(eq(testQuestions.appId, run.appId), eq(testQuestions.triggerPoint, run.triggerPoint)))
      .orderBy(asc(testQuestions.id));
    // The run's total from now on: questions added or deleted meanwhile are not asked by this run.
    await deps.db.update(testRuns).set({ questions: questions.length }).where(eq(testRuns.id, runId));
    const environment = run.environment === "prod" ? "prod" : "stage";
    // Results are kept in groups as they come, with the run's tally, so its page shows progress.
    let pending: PgInsertValue<typeof testResults>[] = [];
    let passed = 0;
    let failed = 0;
    let saving = Promise.resolve();
    const save = () => {
      const group = pending;
      pending = [];
      const tally = { passed, failed };
      saving = saving.then(async () => {
        if (group.length) await deps.db.insert(testResults).values(group);
        await deps.db.update(testRuns).set(tally).where(eq(testRuns.id, runId));
      });
      // A refused write fails the run at the last save, which awaits this chain; not before.
      saving.catch(() => {});
      return saving;
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < questions.length) {
          const question = questions[next++];
          const answer = await askAsFiledNow(
            runId,
            { appId: run.appId, environment, message: question.question, clientType },
            deps,
          );
          const verdict = judge(question, answer);
          if (verdict.passed) passed += 1;
          else failed += 1;
          pending.push({
            runId,
            // A question deleted while the run asked it keeps its result, as one deleted later does.
            questionId: sql`(select ${testQuestions.id} from ${testQuestions} where ${testQuestions.id} = ${question.id})`,
            question: question.question,
            ...verdict,
            outcome: answer.outcome,
            answer: answer.text,
            sources: answer.sources,
            topScore: answer.trace.top_score,
            confidence: answer.trace.confidence ?? null,
            lacked: lackedWordsOf(answer.trace),
          });
          if (pending.length >= SAVE_EVERY) void save();
        }
      }),
    );
    await save();
    await deps.db
      .update(testRuns)
      .set({ status: "done", passed, failed, finishedAt: new Date() })
      .where(eq(testRuns.id, runId));
    return { passed, failed };
  } catch (error) {
    await deps.db
      .update(testRuns)
      // Read on the run's page by anyone who may read the client: one plain line, as a failed job's.
      .set({ status: "failed", error: failedJobLine(error), finishedAt: new Date() })
      .where(eq(testRuns.id, runId));
    return { failed: (error as Error).message };
  }
}
