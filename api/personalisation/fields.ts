import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { fieldNameKey, type ConfigDetail, type ConfigDetailInput, type ModelType } from "@contract";
import { profileFields } from "../db/schema";
import type { Executor } from "../controls/scope";
import { rowsOf } from "../db/rows";
import type { ApiDeps } from "../deps";
import { fieldScore } from "../insights/lead-score";
import { badRequest } from "../http/errors";

type FieldRow = typeof profileFields.$inferSelect;
const toConfigDetail = (row: FieldRow): ConfigDetail => ({
  id: row.id,
  app_id: row.appId,
  name: row.name,
  definition: row.definition,
  field_type: row.fieldType as ConfigDetail["field_type"],
  group: row.group,
  model_type: row.modelType as ModelType,
});

/** The fields of the client's data models (of one model when given), as GET answers them. */
export async function listConfigs(appId: number, modelType: ModelType | undefined, deps: Pick<ApiDeps, "db">) {
  const rows = await deps.db
    .select()
    .from(profileFields)
    .where(and(eq(profileFields.appId, appId), modelType ? eq(profileFields.modelType, modelType) : undefined))
    .orderBy(asc(profileFields.modelType), asc(profileFields.id));
  return rows.map(toConfigDetail);
}

/**
 * POST …/create_and_update (and a restore): creates fields (no id) and updates fields (with id) in
 * one transaction; names are unique per model, whatever their case and whether a space is written _
 * (fieldNameKey). Answers every field of the client.
 */
export async function saveConfigDetails(
  appId: number,
  rows: z.output<typeof ConfigDetailInput>[],
  deps: Pick<ApiDeps, "db">,
) {
  const existing = await listConfigs(appId, undefined, deps);
  const errors: Record<string, string[]> = {};
  const key = (model: string, name: string) => `${model}\n${fieldNameKey(name)}`;
  // Names as they will be after the save: the untouched existing ones plus this request's.
  const touched = new Set(rows.map((r) => r.id).filter(Boolean));
  const taken = new Map(existing.filter((e) => !touched.has(e.id)).map((e) => [key(e.model_type, e.name), e.name]));
  rows.forEach((row, i) => {
    if (row.id && !existing.some((e) => e.id === row.id))
      errors[`personalisation_config_details.${i}.id`] = ["This field no longer exists; reload the page"];
    const k = key(row.model_type, row.name);
    if (taken.has(k))
      errors[`personalisation_config_details.${i}.name`] = [`A field named ${row.name} already exists in this model`];
    taken.set(k, row.name);
  });
  if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0][0], errors);
  await deps.db.transaction(async (tx) => {
    // The unique index on a model's names is checked row by row, not at the end: fields renamed
    // here first step aside under names no field can have (a control character), so that a swap, or
    // a new field taking a renamed one's old name, is saved as the check above judged it.
    for (const row of rows.filter((r) => r.id))
      await tx
        .update(profileFields)
        .set({ name: `\u0001${row.id}` })
        .where(and(eq(profileFields.id, row.id!), eq(profileFields.appId, appId)));
    for (const row of [...rows.filter((r) => r.id), ...rows.filter((r) => !r.id)]) {
      const values = {
        name: row.name,
        definition: row.definition,
        fieldType: row.field_type,
        group: row.group,
        modelType: row.model_type,
      };
      if (row.id)
        await tx
          .update(profileFields)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(profileFields.id, row.id), eq(profileFields.appId, appId)));
      else await tx.insert(profileFields).values({ ...values, appId });
    }
    await moveCapturedValues(appId, renamesOf(existing, rows), tx);
  });
  return listConfigs(appId, undefined, deps);
}

/** Old name ⇒ new name of the user profile fields a save renames (profiles hold values by name). */
function renamesOf(existing: ConfigDetail[], rows: z.output<typeof ConfigDetailInput>[]) {
  const renames: Record<string, string> = {};
  for (const row of rows) {
    const before = existing.find((e) => e.id === row.id);
    if (before?.model_type === "user_profile" && row.model_type === "user_profile" && before.name !== row.name)
      renames[before.name] = row.name;
  }
  return renames;
}

/**
 * The values profiles captured under a renamed field's old name, and the messages they came from,
 * moved to its new name in the same transaction: the profiles screen and its export read them by
 * the model's names, and a value left under the old one showed in a column of a field no longer
 * there. A swap of two names moves both at once. The lead score reads a field's name (an email
 * field, a phone field), so each moved profile is scored again as if captured under the new names.
 */
async function moveCapturedValues(appId: number, renames: Record<string, string>, tx: Executor) {
  if (!Object.keys(renames).length) return;
  const renamed = (column: "values" | "source_messages") =>
    sql.raw(`(select coalesce(jsonb_object_agg(coalesce(renames.map ->> given.key, given.key), given.value), '{}'::jsonb)
      from jsonb_each(p.${column}) as given)`);
  const moved = rowsOf<{ conversation_id: string; values: Record<string, unknown> }>(
    await tx.execute(sql`
    with renames(map) as (select ${JSON.stringify(renames)}::jsonb)
    update visitor_profiles p
    set values = ${renamed("values")}, source_messages = ${renamed("source_messages")}
    from renames
    where p.app_id = ${appId} and jsonb_exists_any(p.values, array(select jsonb_object_keys(renames.map)))
    returning p.conversation_id, p.values`),
  );
  if (!moved.length) return;
  const scores = moved.map((row) => {
    const { score, isLead } = fieldScore(row.values);
    return { id: row.conversation_id, score, lead: isLead };
  });
  await tx.execute(sql`
    update visitor_profiles p set field_score = scored.score, is_lead = scored.lead
    from jsonb_to_recordset(${JSON.stringify(scores)}::jsonb) as scored(id uuid, score int, lead boolean)
    where p.conversation_id = scored.id and (p.field_score <> scored.score or p.is_lead <> scored.lead)`);
}

/** Deletes fields of the client by id (another client's ids are left alone); answers the names deleted. */
export async function deleteFields(appId: number, ids: number[], deps: Pick<ApiDeps, "db">) {
  if (!ids.length) return [];
  const removed = await deps.db
    .delete(profileFields)
    .where(and(inArray(profileFields.id, ids), eq(profileFields.appId, appId)))
    .returning({ name: profileFields.name });
  return removed.map((r) => r.name);
}
