import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { InputPrompt, InputPromptInput } from "@contract";
import { inputPrompts } from "../db/schema";
import type { ApiDeps } from "../deps";
import { notFound } from "../http/errors";
import {
  addError,
  checkTriggerPoints,
  clientScope,
  repeatsOf,
  rowKey,
  saveTransaction,
  throwIfErrors,
  type Errors,
  type Executor,
} from "./scope";

type PromptRow = typeof inputPrompts.$inferSelect;

const fromRow = (row: PromptRow): InputPrompt => ({
  id: row.id,
  app_id: row.appId,
  internal_name: row.internalName,
  prompt_input_raw: row.promptInputRaw,
  trigger_point: row.triggerPoint,
  updated_at: row.updatedAt.toISOString(),
});

/** The prompts saved under the trigger points, oldest first (the table's order stays put as rows are added). */
export async function listInputPrompts(appId: number, triggerPoints: string[], db: Executor) {
  if (!triggerPoints.length) return [];
  const rows = await db
    .select()
    .from(inputPrompts)
    .where(and(eq(inputPrompts.appId, appId), inArray(inputPrompts.triggerPoint, triggerPoints)))
    .orderBy(asc(inputPrompts.id));
  return rows.map(fromRow);
}

const KEY_IN_USE = "Another prompt of this trigger point already uses this key";

/**
 * What makes two prompt keys (ASCII letters, digits, `_`, `.`, `-`) one: case aside ("Tone" and
 * "tone"), as an operator reads them. An agent's prompt replaces Default's of the same key
 * (runtime.ts), so two keys that differ only in case would both reach the model, one contradicting
 * the other.
 */
export const promptKey = (key: string) => key.toLowerCase();

/**
 * PUT /v1/apps/{appId}/input_prompts: rows with an id update that prompt, rows without one add a
 * prompt. A key is used once per trigger point: a row whose key another prompt of its trigger point
 * already has (saved, or another row of the body) is refused on its key, and nothing is saved; a
 * new row never replaces the prompt saved under its key. Blank rows are ignored. Prompts not in
 * the body stay; removing one is DELETE.
 */
export async function saveInputPrompts(
  appId: number,
  input: z.output<typeof InputPromptInput>[],
  deps: Pick<ApiDeps, "db">,
) {
  const { triggerPoints } = await clientScope(appId, deps.db);
  const errors: Errors = {};
  checkTriggerPoints(input, triggerPoints, "input_prompts", errors);
  const rows = input
    .map((row, index) => ({ ...row, index }))
    .filter((row) => row.id || row.internal_name || row.prompt_input_raw);
  for (const row of repeatsOf(rows, (r) => rowKey(r.trigger_point, promptKey(r.internal_name))))
    addError(errors, `input_prompts.${row.index}.internal_name`, "This prompt key is listed twice");
  throwIfErrors(errors);
  await saveTransaction(deps, "input_prompts", async (tx) => {
    // Saved prompts let go of their keys and are written first: a key one of them gives up in this
    // save is free for a new row or another saved prompt (two prompts may trade keys).
    const savedIds = rows.flatMap((row) => (row.id ? [row.id] : []));
    if (savedIds.length)
      await tx
        .update(inputPrompts)
        .set({ internalName: sql`chr(1) || ${inputPrompts.id}::text` })
        .where(and(eq(inputPrompts.appId, appId), inArray(inputPrompts.id, savedIds)));
    for (const row of [...rows.filter((r) => r.id), ...rows.filter((r) => !r.id)]) {
      const path = `input_prompts.${row.index}`;
      const sameKey = (
        await tx
          .select({ id: inputPrompts.id, internalName: inputPrompts.internalName })
          .from(inputPrompts)
          .where(
            and(
              eq(inputPrompts.appId, appId),
              eq(inputPrompts.triggerPoint, row.trigger_point),
              row.id ? ne(inputPrompts.id, row.id) : undefined,
            ),
          )
      ).some((other) => promptKey(other.internalName) === promptKey(row.internal_name));
      const values = { internalName: row.internal_name, promptInputRaw: row.prompt_input_raw, updatedAt: new Date() };
      if (row.id) {
        const [existing] = await tx
          .select({ id: inputPrompts.id })
          .from(inputPrompts)
          .where(
            and(
              eq(inputPrompts.id, row.id),
              eq(inputPrompts.appId, appId),
              eq(inputPrompts.triggerPoint, row.trigger_point),
            ),
          );
        if (!existing)
          addError(
            errors,
            `${path}.id`,
            "This prompt no longer exists or belongs to another trigger point; reload the page",
          );
        else if (sameKey) addError(errors, `${path}.internal_name`, KEY_IN_USE);
        else await tx.update(inputPrompts).set(values).where(eq(inputPrompts.id, row.id));
      } else if (sameKey) {
        addError(errors, `${path}.internal_name`, KEY_IN_USE);
      } else {
        await tx.insert(inputPrompts).values({ ...values, appId, triggerPoint: row.trigger_point });
      }
    }
    throwIfErrors(errors);
  });
  return listInputPrompts(appId, [...new Set(rows.map((r) => r.trigger_point))], deps.db);
}

/** The trigger point of one of the client's prompts, or null when it has no such prompt. */
export async function triggerPointOfPrompt(appId: number, id: number, db: Executor) {
  const [row] = await db
    .select({ triggerPoint: inputPrompts.triggerPoint })
    .from(inputPrompts)
    .where(and(eq(inputPrompts.id, id), eq(inputPrompts.appId, appId)));
  return row?.triggerPoint ?? null;
}

export async function deleteInputPrompt(appId: number, id: number, deps: Pick<ApiDeps, "db">) {
  const [deleted] = await deps.db
    .delete(inputPrompts)
    .where(and(eq(inputPrompts.id, id), eq(inputPrompts.appId, appId)))
    .returning();
  if (!deleted) throw notFound("Prompt not found");
  return fromRow(deleted);
}
