import { getTableName, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  aiProbings,
  appearances,
  configChanges,
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
  await moveHistory(db, appId, from, to);
}

/** History's kinds whose target is a trigger point ("admissions"; an appearance's "stage/admissions"). */
const KINDS_BY_TRIGGER_POINT = ["controls", "smart_probing", "input_prompts"];
/** History's kinds whose recorded items name their trigger point (`trigger_point` in each rule, prompt, question). */
const KINDS_NAMING_TRIGGER_POINTS = [...KINDS_BY_TRIGGER_POINT, "appearance", "finetuning", "test_questions"];

/**
 * A recorded state with its items' `trigger_point` moved from `from` to `to`: a list of items (the
 * controls, rules and prompts of a state) or one item (a test question).
 */
const movedState = (column: AnyPgColumn, from: string, to: string) => sql`case
    when jsonb_typeof(${column}) = 'array' then (
      select coalesce(
        jsonb_agg(
          case when item ->> 'trigger_point' = ${from}
            then jsonb_set(item, '{trigger_point}', to_jsonb(${to}::text)) else item end
          order by place
        ),
        '[]'::jsonb
      )
      from jsonb_array_elements(${column}) with ordinality as items(item, place)
    )
    when jsonb_typeof(${column}) = 'object' and ${column} ->> 'trigger_point' = ${from}
      then jsonb_set(${column}, '{trigger_point}', to_jsonb(${to}::text))
    else ${column}
  end`;

const namesTriggerPoint = (column: AnyPgColumn, from: string) =>
  sql`jsonb_path_exists(coalesce(${column}, 'null'::jsonb), '$[*].trigger_point ? (@ == $point)', jsonb_build_object('point', ${from}::text))`;

/**
 * The agent's History moves with its settings: its changes are filed under the new code, and what
 * they recorded names it. Left under the old one, a revert of a change made before the rename read
 * the old code's settings (none), answered "Nothing to revert" while the change was still in force
 * under the new code, a restore was refused as naming no trigger point of the client, and the lines
 * named the agent by its old code instead of its name. An agent's own changes (its site code before
 * and after) are what happened and stay as recorded.
 */
async function moveHistory(db: Db, appId: number, from: string, to: string) {
  const targets = [from, `stage/${from}`, `prod/${from}`];
  await db.execute(sql`
    update ${configChanges} set
      target = case
        when ${configChanges.kind} in (${sql.join(
          KINDS_BY_TRIGGER_POINT.map((kind) => sql`${kind}`),
          sql`, `,
        )}) and ${configChanges.target} = ${from} then ${to}
        when ${configChanges.kind} = 'appearance' and ${configChanges.target} in (${sql.join(
          targets.slice(1).map((target) => sql`${target}`),
          sql`, `,
        )}) then split_part(${configChanges.target}, '/', 1) || '/' || ${to}
        else ${configChanges.target}
      end,
      before = ${movedState(configChanges.before, from, to)},
      after = ${movedState(configChanges.after, from, to)}
    where ${configChanges.appId} = ${appId}
      and ${configChanges.kind} in (${sql.join(
        KINDS_NAMING_TRIGGER_POINTS.map((kind) => sql`${kind}`),
        sql`, `,
      )})
      and (
        (${configChanges.kind} <> 'finetuning' and ${configChanges.kind} <> 'test_questions'
          and ${configChanges.target} in (${sql.join(
            targets.map((target) => sql`${target}`),
            sql`, `,
          )}))
        or ${namesTriggerPoint(configChanges.before, from)}
        or ${namesTriggerPoint(configChanges.after, from)}
      )`);
}
