import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { clientApps, embedKeys } from "../db/schema";
import { scopeColumns, scopeOf } from "../controls/scope";
import type { ApiDeps } from "../deps";

export type Environment = "stage" | "prod";

/** A client set inactive keeps its keys, but they open nothing: its widget stops until it is active again. */
const ACTIVE = eq(clientApps.status, "active");

/** The client's embed key for an environment, made the first time a script is asked for. */
export async function embedKeyFor(appId: number, environment: Environment, deps: Pick<ApiDeps, "db">) {
  const [existing] = await deps.db
    .select()
    .from(embedKeys)
    .where(and(eq(embedKeys.appId, appId), eq(embedKeys.environment, environment)));
  if (existing) return existing.key;
  const key = `${environment === "prod" ? "pk" : "sk"}_${randomBytes(18).toString("base64url")}`;
  await deps.db.insert(embedKeys).values({ appId, environment, key }).onConflictDoNothing();
  const [row] = await deps.db
    .select()
    .from(embedKeys)
    .where(and(eq(embedKeys.appId, appId), eq(embedKeys.environment, environment)));
  return row.key;
}

/** Which client and environment an embed key opens, or null for a key nobody issued. */
export async function resolveEmbedKey(key: string, deps: Pick<ApiDeps, "db">) {
  const [row] = await deps.db
    .select({ appId: embedKeys.appId, environment: embedKeys.environment })
    .from(embedKeys)
    .innerJoin(clientApps, and(eq(clientApps.id, embedKeys.appId), ACTIVE))
    .where(eq(embedKeys.key, key));
  return row ? { appId: row.appId, environment: row.environment as Environment } : null;
}

/**
 * Which client and environment an embed key opens, with the client's scope (controls/scope.ts), in
 * one read: every call of the widget starts with both, and each read is a round trip.
 */
export async function resolveEmbedKeyScope(key: string, deps: Pick<ApiDeps, "db">) {
  const [row] = await deps.db
    .select({ appId: embedKeys.appId, environment: embedKeys.environment, ...scopeColumns })
    .from(embedKeys)
    .innerJoin(clientApps, and(eq(clientApps.id, embedKeys.appId), ACTIVE))
    .where(eq(embedKeys.key, key));
  return row ? { appId: row.appId, environment: row.environment as Environment, ...scopeOf(row) } : null;
}
