import { inArray, sql } from "drizzle-orm";
import { websites, type RefreshRecord } from "../../db/schema";
import type { PipelineDeps } from "./pipeline-shared";

/** The outcomes a record counts; a run's own counts (processWebsite) are named as its jobs return them. */
const COUNTED = [
  "checked",
  "unchanged",
  "changed",
  "gone",
  "new",
  "failed",
] as const satisfies readonly (keyof RefreshRecord)[];

/** A refresh begins (pages requested for indexing): the websites' records start again from nothing. */
export async function startRefreshRecords(websiteIds: number[], deps: Pick<PipelineDeps, "db">) {
  if (!websiteIds.length) return;
  await deps.db
    .update(websites)
    .set({
      lastRefresh: sql`jsonb_build_object('started_at', now(), ${sql.raw(COUNTED.map((key) => `'${key}', 0`).join(", "))})`,
    })
    .where(inArray(websites.id, websiteIds));
}

/**
 * Adds one job's outcomes to its website's record (two jobs may share a website's pages):
 * checked pages were indexed before (not fetched, unchanged, changed or gone); new ones were
 * indexed for the first time.
 */
export async function addToRefreshRecord(
  websiteId: number,
  done: Record<string, number>,
  deps: Pick<PipelineDeps, "db">,
) {
  const count = (key: string) => done[key] ?? 0;
  const added: Record<(typeof COUNTED)[number], number> = {
    checked: count("not_fetched") + count("unchanged") + count("changed") + count("gone"),
    unchanged: count("not_fetched") + count("unchanged"),
    changed: count("changed"),
    gone: count("gone"),
    new: count("new"),
    failed: count("failed_to_index") - count("gone"),
  };
  if (Object.values(added).every((n) => n === 0)) return;
  const sums = sql.join(
    COUNTED.map(
      (key) => sql`${sql.raw(`'${key}'`)}, coalesce((websites.last_refresh->>${key})::int, 0) + ${added[key]}::int`,
    ),
    sql`, `,
  );
  await deps.db.execute(
    sql`update websites set last_refresh = websites.last_refresh || jsonb_build_object(${sums}) where websites.id = ${websiteId} and websites.last_refresh is not null`,
  );
}
