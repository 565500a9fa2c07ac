import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import {
  AI_PROBING_LABELS,
  AI_PROBING_TYPES,
  DEFAULT_TRIGGER_POINT,
  type AiProbing,
  type AiProbingInput,
  type AiProbingType,
} from "@contract";
import { aiProbings } from "../db/schema";
import type { ApiDeps } from "../deps";
import {
  addError,
  checkTriggerPoints,
  clientScope,
  ownAndInherited,
  repeatsOf,
  rowKey,
  saveTransaction,
  throwIfErrors,
  type Errors,
  type Executor,
} from "./scope";

type ProbingRow = typeof aiProbings.$inferSelect;

const fromRow = (row: ProbingRow): AiProbing => ({
  id: row.id,
  app_id: row.appId,
  internal_name: row.internalName as AiProbingType,
  display_name: row.displayName,
  prompt_input_raw: row.promptInputRaw,
  trigger_point: row.triggerPoint,
});

/**
 * One entry per asked type: the trigger point's own text, else the Default one (id null), else
 * empty (id null). The same rule the assistant follows, so the screen shows what it uses.
 */
export async function listProbings(
  appId: number,
  triggerPoint: string,
  types: readonly AiProbingType[] | undefined,
  db: Executor,
): Promise<AiProbing[]> {
  const wanted = [...new Set(types?.length ? types : AI_PROBING_TYPES)];
  const rows = await db
    .select()
    .from(aiProbings)
    .where(
      and(
        eq(aiProbings.appId, appId),
        inArray(aiProbings.internalName, wanted),
        inArray(aiProbings.triggerPoint, [triggerPoint, DEFAULT_TRIGGER_POINT]),
      ),
    );
  return wanted.map((type) => {
    const { own, inherited } = ownAndInherited(rows, type, triggerPoint);
    if (own) return fromRow(own);
    return {
      id: null,
      app_id: appId,
      internal_name: type,
      display_name: AI_PROBING_LABELS[type],
      trigger_point: triggerPoint,
      prompt_input_raw: inherited?.promptInputRaw ?? "",
    };
  });
}

/** PUT /v1/apps/{appId}/ai_probings: upserts by (trigger point, type), one transaction. */
export async function saveProbings(appId: number, rows: z.output<typeof AiProbingInput>[], deps: Pick<ApiDeps, "db">) {
  const { triggerPoints } = await clientScope(appId, deps.db);
  const errors: Errors = {};
  checkTriggerPoints(rows, triggerPoints, "ai_probings", errors);
  const indexed = rows.map((row, index) => ({ row, index }));
  for (const { index } of repeatsOf(indexed, ({ row }) => rowKey(row.trigger_point, row.internal_name)))
    addError(errors, `ai_probings.${index}.internal_name`, "This text is listed twice for this trigger point");
  throwIfErrors(errors);
  await saveTransaction(deps, "ai_probings", async (tx) => {
    for (const [i, row] of rows.entries()) {
      const [existing] = await tx
        .select({ id: aiProbings.id })
        .from(aiProbings)
        .where(
          and(
            eq(aiProbings.appId, appId),
            eq(aiProbings.triggerPoint, row.trigger_point),
            eq(aiProbings.internalName, row.internal_name),
          ),
        );
      if (row.id && existing?.id !== row.id) {
        addError(
          errors,
          `ai_probings.${i}.id`,
          "This text no longer exists or belongs to another trigger point; reload the page",
        );
        continue;
      }
      // Saves only what is non-empty or changed: an empty text never saved stays unsaved.
      if (!existing && !row.prompt_input_raw.trim()) continue;
      const values = {
        displayName: row.display_name || AI_PROBING_LABELS[row.internal_name],
        promptInputRaw: row.prompt_input_raw,
      };
      if (existing)
        await tx
          .update(aiProbings)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(aiProbings.id, existing.id));
      else
        await tx
          .insert(aiProbings)
          .values({ ...values, appId, internalName: row.internal_name, triggerPoint: row.trigger_point });
    }
    throwIfErrors(errors);
  });
  const saved: AiProbing[] = [];
  for (const triggerPoint of new Set(rows.map((r) => r.trigger_point))) {
    saved.push(
      ...(await listProbings(
        appId,
        triggerPoint,
        rows.filter((r) => r.trigger_point === triggerPoint).map((r) => r.internal_name),
        deps.db,
      )),
    );
  }
  return saved;
}
