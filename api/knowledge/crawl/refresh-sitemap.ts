import { eq, sql } from "drizzle-orm";
import { urls, websites, type SitemapRefreshRecord } from "../../db/schema";
import {
  addUrls,
  fetchOptions,
  isListed,
  loadWebsite,
  refreshUrlsCount,
  sitemapFailureLine,
  type PipelineDeps,
  type WebsiteRecord,
} from "./pipeline-shared";
import { startRefreshRecords } from "../index/refresh-record";
import {
  MAX_URLS_PER_WEBSITE,
  NoSitemapFound,
  readRobots,
  readSitemaps,
  sitemapCandidates,
  sitemapsError,
} from "./sitemaps";
import { FinalFailure } from "../../jobs/final-failure";

/** How long a Refresh Sitemap asked for stands before another may be queued (its job lost, a queue stuck). */
export const SITEMAP_REFRESH_WAIT_SECONDS = 600;

/** A Refresh Sitemap just asked for, before its job has read anything. */
export const sitemapRefreshAsked = (): SitemapRefreshRecord => ({
  asked_at: new Date().toISOString(),
  finished_at: null,
  new: 0,
  removed: 0,
  changed: 0,
  unchanged: 0,
  error: null,
});

/** The website's last Refresh Sitemap, finished: what it marked, or why it read nothing. */
async function finishSitemapRefresh(
  websiteId: number,
  outcome: Pick<SitemapRefreshRecord, "new" | "removed" | "changed" | "unchanged" | "error">,
  deps: PipelineDeps,
) {
  const [row] = await deps.db
    .select({ record: websites.lastSitemapRefresh })
    .from(websites)
    .where(eq(websites.id, websiteId));
  // A refresh queued some other way (none is today) still says when it ran.
  const finishedAt = new Date().toISOString();
  const record: SitemapRefreshRecord = {
    asked_at: row?.record?.asked_at ?? finishedAt,
    finished_at: finishedAt,
    ...outcome,
  };
  await deps.db.update(websites).set({ lastSitemapRefresh: record }).where(eq(websites.id, websiteId));
}

/**
 * Sitemap refresh: reads the sitemaps again and marks each URL new, removed, changed (lastmod
 * moved) or unchanged; the website shows a difference while any new/removed/changed awaits review.
 */
export async function refreshSitemap(websiteId: number, deps: PipelineDeps) {
  const website = await loadWebsite(websiteId, deps);
  if (!website || website.siteMap !== "full_website") return { skipped: "not a sitemap website" };
  try {
    return await readSitemapsAgain(website, deps);
  } catch (error) {
    // The website's row says the failed job's plain line; the log has the whole error.
    const line = sitemapFailureLine("Sitemap refresh", websiteId, error, deps);
    await deps.db
      .update(websites)
      .set({ lastError: `Sitemap refresh: ${line}`, updatedAt: new Date() })
      .where(eq(websites.id, websiteId))
      .catch((unsaved: unknown) =>
        deps.log.warn(`the failed Sitemap refresh of website ${websiteId} was not recorded on it`, unsaved),
      );
    // No sitemap is the site's to fix: failed for good. Anything else is tried again.
    if (error instanceof NoSitemapFound) throw new FinalFailure(line);
    throw error;
  }
}

async function readSitemapsAgain(website: WebsiteRecord, deps: PipelineDeps) {
  const websiteId = website.id;
  const origin = new URL(website.url).origin;
  const robots = await readRobots(origin, fetchOptions(deps));
  const found = await readSitemaps(sitemapCandidates(website.url, robots), fetchOptions(deps), {
    keep: (entry) => isListed(entry, website, robots),
    maxEntries: MAX_URLS_PER_WEBSITE,
    guessed: robots.sitemaps.length === 0,
  });
  if (!found.sitemaps.length) {
    await finishSitemapRefresh(
      websiteId,
      { new: 0, removed: 0, changed: 0, unchanged: 0, error: "No sitemap found" },
      deps,
    );
    throw new NoSitemapFound(found.errors);
  }
  const listed = new Map(found.entries.map((e) => [e.url, e]));
  const existing = await deps.db
    .select({
      id: urls.id,
      url: urls.url,
      lastmod: urls.lastmod,
      status: urls.status,
      inSitemap: urls.inSitemap,
      review: urls.sitemapRefreshReviewStatus,
    })
    .from(urls)
    .where(eq(urls.websiteId, websiteId));
  const known = new Set(existing.map((e) => e.url));
  const { updates, counts } = reviewMarks(existing, listed, found.complete);
  for (let i = 0; i < updates.length; i += 1000) {
    await deps.db.execute(sql`
      update urls set sitemap_refresh_review_status = mark.review, lastmod = mark.lastmod,
        in_sitemap = mark.in_sitemap, updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(updates.slice(i, i + 1000))}::jsonb)
        as mark(id integer, review text, lastmod text, in_sitemap boolean)
      where urls.id = mark.id and urls.website_id = ${websiteId}`);
  }
  const fresh = [...listed.values()].filter((e) => !known.has(e.url));
  const added = await addUrls(
    website,
    fresh.map((e) => ({ url: e.url, lastmod: e.lastmod, review: "new" })),
    deps,
    true,
  );
  await deps.db
    .update(websites)
    .set({
      sitemaps: found.sitemaps,
      // Read now: a website whose sitemap could not be read before is no longer failed, its old error gone.
      status: website.status === "failed_to_index" ? "sitemap_generated" : website.status,
      lastError: sitemapsError(found, robots),
      updatedAt: new Date(),
    })
    .where(eq(websites.id, websiteId));
  await updateSitemapDiff(websiteId, deps);
  await refreshUrlsCount(websiteId, deps);
  const outcome = { ...counts, new: counts.new + added };
  await finishSitemapRefresh(websiteId, { ...outcome, error: null }, deps);
  return outcome;
}

interface StoredPage {
  id: number;
  url: string;
  lastmod: string | null;
  status: string;
  inSitemap: boolean;
  review: string | null;
}

/**
 * What a refresh marks on the pages the website has, against the sitemaps as they read now. A mark
 * says what changed since the sitemaps were last read, and stays until the operator acts on the
 * page (then `reviewed`) or the sitemaps change it again: a refresh that finds nothing new leaves
 * every mark as it was. So a page given by hand is never `removed`, a removal reviewed is not
 * raised again, and a page still awaiting review keeps its mark. A page the operator deleted is not
 * marked `removed` (it is gone already), but a new lastmod still marks it `changed`: it may be worth
 * indexing again.
 */
export function reviewMarks(
  pages: StoredPage[],
  listed: Map<string, { lastmod?: string | null }>,
  /** Whether `listed` is all the sitemaps list: when a limit cut the reading short, no page is marked removed. */
  complete = true,
) {
  const updates: { id: number; review: string | null; lastmod: string | null; in_sitemap: boolean }[] = [];
  const counts = { new: 0, removed: 0, changed: 0, unchanged: 0 };
  const mark = (kind: keyof typeof counts) => {
    counts[kind] += 1;
    return kind;
  };
  for (const page of pages) {
    const entry = listed.get(page.url);
    if (!entry) {
      // Gone from the sitemaps since they were read; a page they did not list stays as it was.
      if (page.inSitemap && complete)
        updates.push({
          id: page.id,
          review: page.status === "deleted" ? page.review : mark("removed"),
          lastmod: page.lastmod,
          in_sitemap: false,
        });
      continue;
    }
    const lastmod = entry.lastmod ?? null;
    if (!page.inSitemap) {
      // Listed again after a removal, or a page given by hand that the sitemaps now list.
      updates.push({ id: page.id, review: mark("new"), lastmod, in_sitemap: true });
    } else if (lastmod && page.lastmod && lastmod !== page.lastmod) {
      // The new lastmod is the baseline once the change has been seen.
      updates.push({ id: page.id, review: mark("changed"), lastmod, in_sitemap: true });
    } else {
      counts.unchanged += 1;
      if (page.review === null || (lastmod && !page.lastmod))
        updates.push({
          id: page.id,
          review: page.review ?? "unchanged",
          lastmod: page.lastmod ?? lastmod,
          in_sitemap: true,
        });
    }
  }
  return { updates, counts };
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
    where (status = 'indexed' and indexed_at < now() - make_interval(days => coalesce(refresh_days, ${defaultDays})))
      -- A page that failed (a 503, a timeout) after it was indexed still answers with what it said
      -- then: it is asked for again each hour until it answers, or says it is gone.
      or (status = 'failed_to_index' and content_hash is not null and updated_at < now() - interval '1 hour')
    returning website_id`);
  const websiteIds = [
    ...new Set((result as unknown as { rows: { website_id: number }[] }).rows.map((r) => Number(r.website_id))),
  ];
  await startRefreshRecords(websiteIds, deps);
  return websiteIds;
}
