import { and, eq } from "drizzle-orm";
import { ALL_APPEARANCE_FIELDS, APPEARANCE_DEFAULTS, appearanceValueError, type AppearanceValues } from "@contract";
import { clientScope, unknownTriggerPoint } from "../controls/scope";
import { appearances } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest } from "../http/errors";

export type Environment = "stage" | "prod";

/** When production of a trigger point was last pushed, or null when it never was (or was only imported). */
export const pushedAtOf = (row: { pushedAt: Date | null } | undefined) => row?.pushedAt?.toISOString() ?? null;

/** Appearances are kept per trigger point the client has (Default, its trigger points, its agents' site codes). */
export async function requireTriggerPoint(appId: number, triggerPoint: string, deps: Pick<ApiDeps, "db">) {
  const { triggerPoints } = await clientScope(appId, deps.db);
  if (!triggerPoints.has(triggerPoint))
    throw badRequest(unknownTriggerPoint(triggerPoint), { triggerPoint: [unknownTriggerPoint(triggerPoint)] });
}

/** Saved values over the defaults: what the widget of this environment shows. */
export async function appearanceOf(
  appId: number,
  triggerPoint: string,
  environment: Environment,
  deps: Pick<ApiDeps, "db">,
) {
  const rows = await deps.db
    .select()
    .from(appearances)
    .where(and(eq(appearances.appId, appId), eq(appearances.environment, environment)));
  // A trigger point's own values override the client default's, which override the built-in ones.
  const base = rows.find((r) => r.triggerPoint === "");
  const own = triggerPoint ? rows.find((r) => r.triggerPoint === triggerPoint) : undefined;
  return {
    values: { ...APPEARANCE_DEFAULTS, ...(base?.values ?? {}), ...(own?.values ?? {}) } as AppearanceValues,
    row: own ?? (triggerPoint ? undefined : base),
  };
}

/** Where a value's error is reported: the path of the field inside the request body. */
const VALUE_PATH = "appearance.value";

/** Every value checked against its field; unknown names refused. Numbers posted as text become numbers. */
export function checkedValues(appId: number, data: Record<string, unknown>) {
  const errors: Record<string, string[]> = {};
  const values: AppearanceValues = {};
  for (const [name, value] of Object.entries(data)) {
    const field = ALL_APPEARANCE_FIELDS.find((f) => f.internalName === name);
    if (!field) {
      errors[`${VALUE_PATH}.${name}`] = [`There is no appearance setting ${name}`];
      continue;
    }
    let error = appearanceValueError(field, value);
    // An image must be one uploaded for this client, not another's.
    if (
      !error &&
      field.type === "image" &&
      value !== "" &&
      !String(value).startsWith(`/storage/public/appearance/${appId}/`)
    )
      error = `${field.label} must be an image uploaded here`;
    if (error) errors[`${VALUE_PATH}.${name}`] = [error];
    else values[name] = field.type === "number" ? Number(value) : (value as string | boolean);
  }
  if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0][0], errors);
  return values;
}

/** PUT /v1/appearances (and a restore): the posted values over the saved ones, in one environment. Answers what the widget shows then. */
export async function saveAppearance(
  appId: number,
  triggerPoint: string,
  environment: Environment,
  posted: Record<string, unknown>,
  deps: Pick<ApiDeps, "db">,
) {
  await requireTriggerPoint(appId, triggerPoint, deps);
  const current = await appearanceOf(appId, triggerPoint, environment, deps);
  const values = { ...(current.row?.values ?? {}), ...checkedValues(appId, posted) };
  // Every save to production is a push (the console pushes stage's values; a restore writes them back).
  const pushedNow = environment === "prod" ? new Date() : null;
  await deps.db
    .insert(appearances)
    .values({ appId, triggerPoint, environment, values, pushedAt: pushedNow })
    .onConflictDoUpdate({
      target: [appearances.appId, appearances.triggerPoint, appearances.environment],
      set: { values, updatedAt: new Date(), ...(pushedNow ? { pushedAt: pushedNow } : {}) },
    });
  return (await appearanceOf(appId, triggerPoint, environment, deps)).values;
}
