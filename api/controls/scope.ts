import { eq, sql } from "drizzle-orm";
import { DEFAULT_TRIGGER_POINT } from "@contract";
import type { Caller } from "../auth/caller";
import { requireApp } from "../auth/permissions";
import { isUniqueViolation } from "../db/errors";
import { clientApps } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest, notFound } from "../http/errors";

export type Tx = Parameters<Parameters<ApiDeps["db"]["transaction"]>[0]>[0];
/** The database or a transaction: reads run in either. */
export type Executor = ApiDeps["db"] | Tx;
export type Errors = Record<string, string[]>;

export const addError = (errors: Errors, path: string, message: string) => {
  (errors[path] ??= []).push(message);
};

/** One key of several parts (a trigger point, a type, a text), none of which can hold the separator. */
export const rowKey = (...parts: string[]) => parts.join("\u0000");

/**
 * The items of one save that repeat an earlier item's key, in order: each is refused by its
 * caller, and the first keeps its place. An item whose key is empty repeats nothing.
 */
export function repeatsOf<Item>(items: readonly Item[], keyOf: (item: Item) => string) {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = keyOf(item);
    if (!key) return false;
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
}

/**
 * A type's row saved under the trigger point (`own`), and the Default's (`inherited`), which is
 * what the assistant uses when the trigger point has none.
 */
export function ownAndInherited<Row extends { internalName: string; triggerPoint: string }>(
  rows: readonly Row[],
  type: string,
  triggerPoint: string,
) {
  return {
    own: rows.find((row) => row.internalName === type && row.triggerPoint === triggerPoint),
    inherited: rows.find((row) => row.internalName === type && row.triggerPoint === DEFAULT_TRIGGER_POINT),
  };
}

/** Throws the collected field errors as one 400 (inside a transaction, this also rolls it back). */
export function throwIfErrors(errors: Errors) {
  if (Object.keys(errors).length) throw badRequest("Invalid request body", errors);
}

/**
 * What a client's scope is read from: its type, its trigger points and its agents' site codes.
 * Drizzle writes columns of a one-table select without their table, so inside the sub-select a bare
 * "id" would be the agent's: both sides are spelled out with their tables.
 */
export const scopeColumns = {
  clientType: clientApps.clientType,
  triggerPoints: clientApps.triggerPoints,
  siteCodes: sql<string[]>`array(select agent.site_code from agents agent where agent.app_id = "client_apps"."id")`,
};

/**
 * The client's type, and its trigger points: Default, its own and its agents' site codes (what
 * ensureDefaultPersonality uses).
 */
export function scopeOf(app: { clientType: string; triggerPoints: string[]; siteCodes: string[] }) {
  return {
    clientType: app.clientType,
    triggerPoints: new Set([DEFAULT_TRIGGER_POINT, ...app.triggerPoints, ...app.siteCodes]),
  };
}

/** The client's type and the trigger points its settings may be saved under, in one round trip. */
export async function clientScope(appId: number, db: Executor) {
  const [app] = await db.select(scopeColumns).from(clientApps).where(eq(clientApps.id, appId));
  if (!app) throw notFound("Client not found");
  return scopeOf(app);
}

export const unknownTriggerPoint = (triggerPoint: string) =>
  `"${triggerPoint}" is not a trigger point of this client; choose Default, one of its trigger points or an agent's site code`;

/** Field errors for rows saved under a trigger point the client does not have. */
export function checkTriggerPoints(
  rows: { trigger_point: string }[],
  allowed: Set<string>,
  listKey: string,
  errors: Errors,
) {
  rows.forEach((row, i) => {
    if (!allowed.has(row.trigger_point)) {
      addError(errors, `${listKey}.${i}.trigger_point`, unknownTriggerPoint(row.trigger_point));
    }
  });
}

/**
 * Which client a save is for: the app_id of the query, the body and each row must agree, and at
 * least one must be given. Then the caller must be allowed to configure that client.
 */
export function resolveAppId(
  caller: Caller,
  sources: { query?: number; body?: number; rows: { app_id?: number | null }[]; listKey: string },
) {
  const appId = sources.query ?? sources.body ?? sources.rows.find((r) => r.app_id)?.app_id;
  if (!appId) throw badRequest("Invalid request body", { app_id: ["Say which client this is for (app_id)"] });
  requireApp(caller, appId, "configure");
  const errors: Errors = {};
  if (sources.body && sources.body !== appId)
    addError(errors, "app_id", "app_id of the body and of the address differ");
  sources.rows.forEach((row, i) => {
    if (row.app_id && row.app_id !== appId)
      addError(errors, `${sources.listKey}.${i}.app_id`, "Every row must belong to the client being saved");
  });
  throwIfErrors(errors);
  return appId;
}

/**
 * One save, one transaction. A unique violation can only come from two saves racing to add the
 * same row (each save checks its own rows first): the loser hears it as a 400, not a 500.
 */
export async function saveTransaction<T>(
  deps: Pick<ApiDeps, "db">,
  listKey: string,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  try {
    return await deps.db.transaction(work);
  } catch (error) {
    if (isUniqueViolation(error))
      throw badRequest("Invalid request body", {
        [listKey]: ["Someone saved the same rows at the same time; reload the page and save again"],
      });
    throw error;
  }
}
