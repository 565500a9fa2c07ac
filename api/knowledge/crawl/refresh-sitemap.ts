import { eq, inArray, sql } from "drizzle-orm";
import { urls, websites } from "../../db/schema";
import { addUrls, fetchOptions, isListed, loadWebsite, refreshUrlsCount, type PipelineDeps } from "./pipeline-shared";
import { startRefreshRecords } from "./refresh-record";
import { readRobots, readSitemaps, sitemapCandidates } from "./sitemaps";

/**
 * Sitemap refresh: reads the sitemaps again and marks each URL new, removed, changed (lastmod
 * moved) or unchanged; the website shows a difference while any new/removed/changed awaits review.
 */
export async function refreshSitemap(websiteId: number, deps: PipelineDeps) {
  const website = await loadWebsite(websiteId, deps);
  if (!website || website.siteMap !== "full_website") return { skipped: "not a sitemap website" };
  const origin = new URL(website.url).origin;
  const robots = await readRobots(origin, fetchOptions(deps));
  const found = await readSitemaps(sitemapCandidates(website.url, robots), fetchOptions(deps));
  if (!found.sitemaps.length) {
    await deps.db
      .update(websites)
      .set({ lastError: `Sitemap refresh: no sitemap found (${found.errors.join("; ")})`, updatedAt: new Date() })
      .where(eq(websites.id, websiteId));
    return { failed: "no sitemap" };
  }
  const listed = new Map(found.entries.filter((e) => isListed(e, website, robots)).map((e) => [e.url, e]));
  const existing = await deps.db
    .select({ id: urls.id, url: urls.url, lastmod: urls.lastmod, status: urls.status })
    .from(urls)
    .where(eq(urls.websiteId, websiteId));
  const known = new Set(existing.map((e) => e.url));
  const marks: Record<string, number[]> = { new: [], removed: [], changed: [], unchanged: [] };
  for (const row of existing) {
    const entry = listed.get(row.url);
    if (!entry) {
      if (row.status !== "deleted") marks.removed.push(row.id);
      continue;
    }
    if (entry.lastmod && row.lastmod && entry.lastmod !== row.lastmod) marks.changed.push(row.id);
    else marks.unchanged.push(row.id);
  }
  for (const [mark, ids] of Object.entries(marks)) {
    for (let i = 0; i < ids.length; i += 1000) {
      const slice = ids.slice(i, i + 1000);
      if (mark === "changed") {
        // The new lastmod is the baseline once the change has been seen.
        for (const id of slice) {
          const row = existing.find((e) => e.id === id)!;
          await deps.db
            .update(urls)
            .set({
              sitemapRefreshReviewStatus: "changed",
              lastmod: listed.get(row.url)!.lastmod,
              updatedAt: new Date(),
            })
            .where(eq(urls.id, id));
        }
      } else if (slice.length) {
        await deps.db
          .update(urls)
          .set({ sitemapRefreshReviewStatus: mark, updatedAt: new Date() })
          .where(inArray(urls.id, slice));
      }
    }
  }
  const fresh = [...listed.values()].filter((e) => !known.has(e.url));
  const added = await addUrls(
    website,
    fresh.map((e) => ({ url: e.url, lastmod: e.lastmod, review: "new" })),
    deps,
  );
  await deps.db
    .update(websites)
    .set({ sitemaps: found.sitemaps, updatedAt: new Date() })
    .where(eq(websites.id, websiteId));
  await updateSitemapDiff(websiteId, deps);
  await refreshUrlsCount(websiteId, deps);
  return {
    new: added,
    removed: marks.removed.length,
    changed: marks.changed.length,
    unchanged: marks.unchanged.length,
  };
}

/** The red dot: true while any URL of the website awaits review. */
export async function updateSitemapDiff(websiteId: number, deps: PipelineDeps) {
  await deps.db.execute(sql`update websites set sitemap_diff = exists (
      select 1 from urls where website_id = ${websiteId} and sitemap_refresh_review_status in ('new', 'removed', 'changed'))
    where id = ${websiteId}`);
}

/** Indexed URLs older than their refresh days go back in line; answers the websites to process. */
export async function queueDueRefreshes(deps: PipelineDeps, defaultDays: number) {
  const result = await deps.db.execute(sql`
    update urls set status = 'to_be_indexed', updated_at = now()
    where status = 'indexed' and indexed_at < now() - make_interval(days => coalesce(refresh_days, ${defaultDays}))
    returning website_id`);
  const websiteIds = [
    ...new Set((result as unknown as { rows: { website_id: number }[] }).rows.map((r) => Number(r.website_id))),
  ];
  await startRefreshRecords(websiteIds, deps);
  return websiteIds;
}
