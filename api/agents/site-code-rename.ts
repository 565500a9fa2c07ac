import { getTableName, sql } from "drizzle-orm";
import {
  aiProbings,
  appearances,
  controls,
  controlTopics,
  conversations,
  finetunings,
  inputPrompts,
  insightDays,
  insightQuestionMonths,
  insightQuestions,
  insightSources,
  testQuestions,
  testRuns,
} from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest } from "../http/errors";

/**
 * Everything kept under an agent's site code, its trigger point: the agent's settings, appearance,
 * test questions and runs (results follow their run), conversations and their tallies.
 */
const KEPT_UNDER_TRIGGER_POINT = [
  controls,
  controlTopics,
  aiProbings,
  inputPrompts,
  finetunings,
  appearances,
  testQuestions,
  testRuns,
  conversations,
  insightDays,
  insightQuestions,
  insightQuestionMonths,
  insightSources,
].map((table) => sql.identifier(getTableName(table)));

type Db = ApiDeps["db"];

export const triggerPointInUse = (code: string) =>
  `Settings, test questions or conversations of this client are already kept under “${code}”; choose another site code`;

/**
 * An agent's site code changed from `from` to `to`: what it kept under the old one moves with it,
 * so its controls, appearance, questions and conversations stay its own (run inside the agent's
 * update). Refused when anything is already kept under `to` (a client trigger point of that name,
 * or what a deleted agent left): merging two agents' settings would silently mix them.
 */
export async function moveTriggerPoint(db: Db, appId: number, from: string, to: string) {
  if (from === to) return;
  for (const table of KEPT_UNDER_TRIGGER_POINT) {
    const taken = await db.execute(
      sql`select 1 from ${table} where app_id = ${appId} and trigger_point = ${to} limit 1`,
    );
    if ((taken as unknown as { rows: unknown[] }).rows.length)
      throw badRequest("Invalid request body", { site_code: [triggerPointInUse(to)] });
  }
  for (const table of KEPT_UNDER_TRIGGER_POINT)
    await db.execute(
      sql`update ${table} set trigger_point = ${to} where app_id = ${appId} and trigger_point = ${from}`,
    );
}
