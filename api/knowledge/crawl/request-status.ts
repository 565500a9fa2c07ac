import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { ApiDeps } from "../../deps";
import { urls } from "../../db/schema";
import { startRefreshRecords } from "../index/refresh-record";

/**
 * Marks URLs as requested (to_be_indexed / to_be_skipped / to_be_deleted) and answers the websites
 * whose processing must start, the addresses marked (what History records of the request) and how
 * many were left alone because they are being processed now.
 * URLs awaiting sitemap review count as reviewed once acted on.
 */
export async function requestStatus(
  appId: number,
  target: { websiteId: number | null; urlIds?: number[] },
  status: string,
  force: boolean,
  deps: Pick<ApiDeps, "db">,
) {
  const conditions: SQL[] = [eq(urls.appId, appId)];
  if (target.websiteId !== null) conditions.push(eq(urls.websiteId, target.websiteId));
  if (target.urlIds) conditions.push(inArray(urls.id, target.urlIds));
  // URLs already on their way are left alone (counted, so the caller can say so); a deleted URL
  // can be indexed again, but asking to delete it again (or skip a skipped one) changes nothing.
  const onTheirWay = sql`${urls.status} in ('sent_for_indexing', 'sent_for_skipping', 'sent_for_deletion')`;
  const [{ inProgress }] = await deps.db
    .select({ inProgress: sql<number>`count(*)::int` })
    .from(urls)
    .where(and(...conditions, onTheirWay));
  conditions.push(sql`not ${onTheirWay}`);
  const done = status === "to_be_deleted" ? "deleted" : status === "to_be_skipped" ? "skipped" : null;
  if (done) conditions.push(sql`${urls.status} <> ${done}`);
  const updated = await deps.db
    .update(urls)
    .set({
      status,
      metadata: force ? sql`${urls.metadata} || '{"force_index": true}'::jsonb` : sql`${urls.metadata} - 'force_index'`,
      sitemapRefreshReviewStatus: sql`case when ${urls.sitemapRefreshReviewStatus} in ('new', 'removed', 'changed') then 'reviewed' else ${urls.sitemapRefreshReviewStatus} end`,
      updatedAt: new Date(),
    })
    .where(and(...conditions))
    .returning({ websiteId: urls.websiteId, url: urls.url });
  const websiteIds = [...new Set(updated.map((u) => u.websiteId))];
  if (status === "to_be_indexed") await startRefreshRecords(websiteIds, deps);
  // In address order: an UPDATE answers its rows in the order it met them, which on PostgreSQL is
  // storage order (a page changed since comes last), and History lists the first of them.
  const addresses = updated.map((u) => u.url).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { updated: updated.length, inProgress: Number(inProgress), websiteIds, addresses };
}
