import { sql } from "drizzle-orm";
import { ANSWER_RATINGS, CHAT_OUTCOMES, type AnswerRating, type ChatOutcome } from "@contract";
import { rowsOf } from "../db/rows";
import { conversations, messages, testQuestions, testResults, testRuns } from "../db/schema";
import type { ApiDeps } from "../deps";
import { ratedAnswerSample, testResultSample, type ReplaySample } from "./replay";

/** The latest rated answers replayed: recent enough to speak of today's knowledge, enough to count. */
export const RATED_ANSWERS_REPLAYED = 2_000;
/** Test results replayed at most (both environments' latest runs together). */
export const TEST_RESULTS_REPLAYED = 5_000;

type Db = Pick<ApiDeps, "db">;

const outcomeOf = (value: string | null): ChatOutcome | null =>
  value !== null && (CHAT_OUTCOMES as readonly string[]).includes(value) ? (value as ChatOutcome) : null;

interface TestResultRow {
  confidence: number | string;
  outcome: string;
  passed: boolean;
  expect_outcome: string | null;
}
interface RatedAnswerRow {
  confidence: number | string;
  rating: string;
  outcome: string;
}

/**
 * The results of the agent's latest finished ('done') test run in stage and in prod that recorded
 * a confidence, with their question's expectation as it stands now (a result whose question was deleted
 * is left out: nothing says what it expected). Canned results and small talk are left out here already, so the
 * bound counts only what is replayed. Reads two runs by test_runs_app_idx and their results by
 * test_results_run_idx.
 */
export async function testResultSamples(appId: number, triggerPoint: string, deps: Db): Promise<ReplaySample[]> {
  const rows = rowsOf<TestResultRow>(
    await deps.db.execute(sql`
    select r.confidence, r.outcome, r.passed, q.expect_outcome
    from ${testResults} r
    join ${testQuestions} q on q.id = r.question_id
    where r.run_id in (
      select (
        select run.id from ${testRuns} run
        where run.app_id = ${appId} and run.trigger_point = ${triggerPoint} and run.environment = env.name and run.status = 'done'
        order by run.id desc limit 1
      ) from (values ('stage'), ('prod')) as env(name)
    )
      and r.confidence is not null and r.outcome not in ('canned', 'small_talk')
    order by r.run_id, r.id
    limit ${TEST_RESULTS_REPLAYED}`),
  );
  return rows.flatMap((row) => {
    const ranAs = outcomeOf(row.outcome);
    if (!ranAs) return [];
    const sample = testResultSample({
      confidence: Number(row.confidence),
      ranAs,
      passed: Boolean(row.passed),
      expectOutcome: outcomeOf(row.expect_outcome),
    });
    return sample ? [sample] : [];
  });
}

/**
 * The agent's latest RATED_ANSWERS_REPLAYED answers that a visitor rated and that carry a trace
 * (answers given before their confidence was recorded have none to replay), in stage and prod alike,
 * canned ones and small talk left out (UNGATED_OUTCOMES). Read backwards along messages_rated_idx, each joined to its conversation
 * for the trigger point: the statement never reads an unrated message.
 */
export async function ratedAnswerSamples(appId: number, triggerPoint: string, deps: Db): Promise<ReplaySample[]> {
  const rows = rowsOf<RatedAnswerRow>(
    await deps.db.execute(sql`
    select (m.trace ->> 'confidence')::float8 as confidence, m.rating, m.outcome
    from ${messages} m
    join ${conversations} c on c.id = m.conversation_id
    where m.app_id = ${appId} and m.rating is not null and m.rating in ('up', 'down') and m.role = 'assistant'
      and jsonb_typeof(m.trace -> 'confidence') = 'number' and m.outcome not in ('canned', 'small_talk')
      and c.trigger_point = ${triggerPoint}
    order by m.id desc
    limit ${RATED_ANSWERS_REPLAYED}`),
  );
  return rows.flatMap((row) => {
    const outcome = outcomeOf(row.outcome);
    const rating = (ANSWER_RATINGS as readonly string[]).includes(row.rating) ? (row.rating as AnswerRating) : null;
    if (!outcome || !rating) return [];
    const sample = ratedAnswerSample({ confidence: Number(row.confidence), rating, outcome });
    return sample ? [sample] : [];
  });
}
