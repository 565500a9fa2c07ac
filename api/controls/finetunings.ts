import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import {
  DEFAULT_TRIGGER_POINT,
  FINETUNING_TYPES,
  PENALTY_TYPES,
  type Finetuning,
  type FinetuningChange,
  type FinetuningType,
} from "@contract";
import { finetunings } from "../db/schema";
import type { ApiDeps } from "../deps";
import type { CleanupRules } from "../knowledge/extract/extract-html";
import {
  addError,
  clientScope,
  repeatsOf,
  rowKey,
  saveTransaction,
  throwIfErrors,
  unknownTriggerPoint,
  type Errors,
  type Executor,
} from "./scope";

type FinetuningRow = typeof finetunings.$inferSelect;
const CLEANUP = "html_tags_to_remove";

const fromRow = (row: FinetuningRow): Finetuning => ({
  id: row.id,
  app_id: row.appId,
  trigger_point: row.triggerPoint,
  finetuning_type: row.finetuningType as FinetuningType,
  pattern: row.pattern,
  penalty: row.penalty,
  metadata: row.metadata,
});

const typeOrder = (type: string) => FINETUNING_TYPES.indexOf(type as FinetuningType);

/** GET /v1/controls/list_finetunings: grouped by table (type order), then site, then as added. */
export async function listFinetunings(appId: number, triggerPoint: string | undefined, db: Executor) {
  const rows = await db
    .select()
    .from(finetunings)
    .where(
      and(
        eq(finetunings.appId, appId),
        triggerPoint === undefined ? undefined : eq(finetunings.triggerPoint, triggerPoint),
      ),
    )
    .orderBy(asc(finetunings.id));
  return rows
    .sort(
      (a, b) =>
        typeOrder(a.finetuningType) - typeOrder(b.finetuningType) ||
        a.triggerPoint.localeCompare(b.triggerPoint) ||
        a.id - b.id,
    )
    .map(fromRow);
}

type Upsert = Extract<FinetuningChange, { deleted: false }>;

/**
 * What makes two rules the same rule: a penalty is one per (site, type, pattern); a clean-up
 * rule is its site and its metadata. A new row matching a saved rule updates it, so saving the
 * same rows twice stores them once.
 */
const naturalKey = (row: Upsert) =>
  row.finetuning_type === CLEANUP
    ? rowKey(row.trigger_point, CLEANUP, JSON.stringify(row.metadata))
    : rowKey(row.trigger_point, row.finetuning_type, row.pattern);

async function findSame(appId: number, row: Upsert, exceptId: number | undefined, db: Executor) {
  const [found] = await db
    .select({ id: finetunings.id })
    .from(finetunings)
    .where(
      and(
        eq(finetunings.appId, appId),
        eq(finetunings.triggerPoint, row.trigger_point),
        eq(finetunings.finetuningType, row.finetuning_type),
        row.finetuning_type === CLEANUP
          ? sql`${finetunings.metadata} = ${JSON.stringify(row.metadata)}::jsonb`
          : eq(finetunings.pattern, row.pattern),
        exceptId ? ne(finetunings.id, exceptId) : undefined,
      ),
    );
  return found;
}

/**
 * POST /v1/controls/upsert_finetunings. Rows marked deleted are removed, the others inserted or
 * updated, all in one transaction: a save is applied whole or not at all. Blank rows arrive
 * here as null (the contract drops them) and are skipped.
 */
export async function saveFinetunings(appId: number, input: (FinetuningChange | null)[], deps: Pick<ApiDeps, "db">) {
  const { triggerPoints } = await clientScope(appId, deps.db);
  const errors: Errors = {};
  const indexed = input
    .map((row, index) => ({ row, index }))
    .filter((r): r is { row: FinetuningChange; index: number } => r.row !== null);
  const upserts = indexed.filter((r): r is { row: Upsert; index: number } => !r.row.deleted);
  const deletions = indexed.filter((r) => r.row.deleted).map((r) => r.row.id!);
  for (const { row, index } of upserts) {
    if (!triggerPoints.has(row.trigger_point))
      addError(errors, `finetunings.${index}.trigger_point`, unknownTriggerPoint(row.trigger_point));
  }
  for (const { row, index } of repeatsOf(upserts, ({ row }) => naturalKey(row)))
    addError(
      errors,
      `finetunings.${index}.${row.finetuning_type === CLEANUP ? "metadata" : "pattern"}`,
      "The same rule is listed twice for this site",
    );
  throwIfErrors(errors);

  let saved = 0;
  let deleted = 0;
  await saveTransaction(deps, "finetunings", async (tx) => {
    if (deletions.length) {
      deleted = (
        await tx
          .delete(finetunings)
          .where(and(eq(finetunings.appId, appId), inArray(finetunings.id, deletions)))
          .returning({ id: finetunings.id })
      ).length;
    }
    // Saved rules let go of their patterns (clean-up rules of their tags) first and are written
    // before new rows: a new row may take the pattern a saved rule moves off, and two rules may
    // trade patterns, without one being taken for the other (and merged into it).
    const savedIds = upserts.flatMap(({ row }) => (row.id ? [row.id] : []));
    if (savedIds.length)
      await tx
        .update(finetunings)
        .set({
          pattern: sql`chr(1) || ${finetunings.id}::text`,
          metadata: sql`jsonb_build_object(chr(1), ${finetunings.id})`,
        })
        .where(and(eq(finetunings.appId, appId), inArray(finetunings.id, savedIds)));
    for (const { row, index } of [...upserts.filter((r) => r.row.id), ...upserts.filter((r) => !r.row.id)]) {
      const values = {
        triggerPoint: row.trigger_point,
        finetuningType: row.finetuning_type,
        pattern: row.pattern,
        penalty: row.penalty,
        metadata: row.metadata,
        updatedAt: new Date(),
      };
      const same = await findSame(appId, row, row.id, tx);
      if (row.id) {
        const [existing] = await tx
          .select({ id: finetunings.id })
          .from(finetunings)
          .where(and(eq(finetunings.id, row.id), eq(finetunings.appId, appId)));
        if (!existing) addError(errors, `finetunings.${index}.id`, "This rule no longer exists; reload the page");
        else if (same)
          addError(
            errors,
            `finetunings.${index}.${row.finetuning_type === CLEANUP ? "metadata" : "pattern"}`,
            "Another rule of this site and type already has this pattern",
          );
        else await tx.update(finetunings).set(values).where(eq(finetunings.id, row.id));
      } else if (same) {
        await tx.update(finetunings).set(values).where(eq(finetunings.id, same.id));
      } else {
        await tx.insert(finetunings).values({ ...values, appId });
      }
      saved += 1;
    }
    throwIfErrors(errors);
  });
  return { saved, deleted, finetunings: await listFinetunings(appId, undefined, deps.db) };
}

/** DELETE /v1/controls/bulk_delete_finetunings: ids of other clients are left alone. */
export async function deleteFinetunings(appId: number, ids: number[], deps: Pick<ApiDeps, "db">) {
  const rows = await deps.db
    .delete(finetunings)
    .where(and(eq(finetunings.appId, appId), inArray(finetunings.id, ids)))
    .returning({ id: finetunings.id });
  return rows.length;
}

export interface PenaltyRule {
  id: number;
  type: (typeof PENALTY_TYPES)[number];
  pattern: string;
  penalty: number;
  triggerPoint: string;
}

/**
 * The penalties that apply to one trigger point: the Default rules and the trigger point's own,
 * where an own rule replaces the Default rule of the same type and pattern.
 */
export async function penaltyRulesFor(appId: number, triggerPoint: string, db: Executor): Promise<PenaltyRule[]> {
  const rows = await db
    .select()
    .from(finetunings)
    .where(
      and(
        eq(finetunings.appId, appId),
        inArray(finetunings.finetuningType, [...PENALTY_TYPES]),
        inArray(finetunings.triggerPoint, [...new Set([DEFAULT_TRIGGER_POINT, triggerPoint])]),
      ),
    )
    .orderBy(asc(finetunings.id));
  const byKey = new Map<string, PenaltyRule>();
  for (const row of rows.sort(
    (a, b) => Number(a.triggerPoint !== DEFAULT_TRIGGER_POINT) - Number(b.triggerPoint !== DEFAULT_TRIGGER_POINT),
  )) {
    if (row.penalty === null) continue;
    byKey.set(rowKey(row.finetuningType, row.pattern), {
      id: row.id,
      type: row.finetuningType as PenaltyRule["type"],
      pattern: row.pattern,
      penalty: row.penalty,
      triggerPoint: row.triggerPoint,
    });
  }
  return [...byKey.values()];
}

/**
 * The clean-up rules indexing applies to a client's pages: the tags, classes and ids of every
 * Default html_tags_to_remove rule. Pages are indexed once for all of a client's agents, so only
 * client-wide rules can act here (the API refuses clean-up rules for other sites).
 */
export async function cleanupRulesFor(appId: number, db: Executor): Promise<CleanupRules> {
  const rows = await db
    .select({ metadata: finetunings.metadata })
    .from(finetunings)
    .where(
      and(
        eq(finetunings.appId, appId),
        eq(finetunings.finetuningType, CLEANUP),
        eq(finetunings.triggerPoint, DEFAULT_TRIGGER_POINT),
      ),
    );
  const selectors = new Set<string>();
  for (const { metadata } of rows) {
    const tags = metadata.tags;
    if (Array.isArray(tags))
      for (const tag of tags) if (typeof tag === "string" && tag.trim()) selectors.add(tag.trim());
  }
  return { removeSelectors: [...selectors] };
}
