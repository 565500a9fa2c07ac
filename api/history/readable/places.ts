import { eq } from "drizzle-orm";
import { DEFAULT_TRIGGER_POINT_LABEL } from "@contract";
import type { Executor } from "../../controls/scope";
import { agents } from "../../db/schema";

/** A trigger point as people know it: the agent whose site code it is, "Default" for '', else the code itself. */
export type PlaceName = (triggerPoint: string) => string;

/**
 * The client's trigger points by their agents' names, read once for a page of changes. The names
 * are today's: a renamed agent's old changes show its new name, the one on its screens now.
 */
export async function placeNamesOf(appId: number, db: Executor): Promise<PlaceName> {
  const rows = await db
    .select({ siteCode: agents.siteCode, name: agents.name })
    .from(agents)
    .where(eq(agents.appId, appId));
  const names = new Map(rows.filter((row) => row.siteCode).map((row) => [row.siteCode, row.name]));
  return (triggerPoint) =>
    triggerPoint === "" ? DEFAULT_TRIGGER_POINT_LABEL : (names.get(triggerPoint) ?? triggerPoint);
}
