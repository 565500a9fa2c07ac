import { createHash } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { cleanupRulesFor } from "../controls/finetunings";
import type { ApiDeps } from "../deps";
import { urls, websites } from "../db/schema";
import { replaceChunks } from "./chunk-store";
import { chunkBlocks } from "./chunk";
import { extractHtml, type CleanupRules, type ExtractedPage } from "./extract-html";
import { extractPdf } from "./extract-pdf";
import { FetchRefused, safeFetch, type FetchOptions } from "./fetcher";
import { HostGate } from "./host-gate";
import { passesPatterns, readRobots, readSitemaps, sameSite, sitemapCandidates, type Robots } from "./sitemaps";
import { cutText } from "../../contract";

type UrlRecord = typeof urls.$inferSelect;
type WebsiteRecord = typeof websites.$inferSelect;
type PipelineDeps = Pick<ApiDeps, "db" | "config" | "log">;

const MAX_URLS_PER_WEBSITE = 100_000;
const BATCH = 25;

const fetchOptions = (deps: PipelineDeps): FetchOptions => ({
  allowPrivate: deps.config.crawlAllowPrivate, localExceptions: deps.config.crawlLocalExceptions, timeoutMs: deps.config.crawlTimeoutMs,
});

async function loadWebsite(websiteId: number, deps: PipelineDeps) {
  const [website] = await deps.db.select().from(websites).where(eq(websites.id, websiteId));
  return website ?? null;
}

export async function refreshUrlsCount(websiteId: number, deps: PipelineDeps) {
  await deps.db.execute(sql`update websites set urls_count = (select count(*) from urls where website_id = ${websiteId}), updated_at = now() where id = ${websiteId}`);
}

/** Inserts new URLs as pending_review (existing ones are left as they are); returns how many were new. */
export async function addUrls(website: WebsiteRecord, entries: { url: string; lastmod?: string | null; review?: string | null }[], deps: PipelineDeps) {
  let added = 0;
  for (let i = 0; i < entries.length; i += 1000) {
    const slice = entries.slice(i, i + 1000);
    const inserted = await deps.db
      .insert(urls)
      .values(slice.map((e) => ({
        appId: website.appId, websiteId: website.id, url: e.url, lastmod: e.lastmod ?? null, sitemapRefreshReviewStatus: e.review ?? null,
      })))
      .onConflictDoNothing()
      .returning({ id: urls.id });
    added += inserted.length;
  }
  return added;
}

/**
 * Sitemap generation: robots.txt, the sitemaps it names (or /sitemap.xml), indexes and gzip
 * followed, allowed/skip patterns applied, pages of other hosts dropped. few_urls websites take
 * their given URLs only.
 */
export async function discoverWebsite(websiteId: number, deps: PipelineDeps) {
  const website = await loadWebsite(websiteId, deps);
  if (!website) return { skipped: "website gone" };
  await deps.db.update(websites).set({ status: "pending_sitemap_generation", lastError: null, updatedAt: new Date() }).where(eq(websites.id, websiteId));
  try {
    if (website.siteMap === "few_urls") {
      const given = website.seedUrls.length ? website.seedUrls : [website.url];
      const added = await addUrls(website, given.map((url) => ({ url })), deps);
      await deps.db.update(websites).set({ status: "sitemap_generated", sitemaps: [], updatedAt: new Date() }).where(eq(websites.id, websiteId));
      await refreshUrlsCount(websiteId, deps);
      return { added };
    }
    const origin = new URL(website.url).origin;
    const robots = await readRobots(origin, fetchOptions(deps));
    const found = await readSitemaps(sitemapCandidates(website.url, robots), fetchOptions(deps));
    const entries = found.entries
      .filter((e) => sameSite(e.url, website.url) && passesPatterns(e.url, website.allowedPatterns, website.skipPatterns) && robots.isAllowed(e.url))
      .slice(0, MAX_URLS_PER_WEBSITE);
    if (!found.sitemaps.length) throw new Error(`No sitemap found (${found.errors.join("; ") || "none listed"})`);
    const added = await addUrls(website, entries, deps);
    await deps.db.update(websites).set({
      // Misses among guessed locations (no Sitemap line in robots.txt) are not errors once one was found.
      status: "sitemap_generated", sitemaps: found.sitemaps,
      lastError: found.errors.length && robots.sitemaps.length ? cutText(found.errors.join("; "), 2000) : null, updatedAt: new Date(),
    }).where(eq(websites.id, websiteId));
    await refreshUrlsCount(websiteId, deps);
    return { added, sitemaps: found.sitemaps.length, errors: found.errors.length };
  } catch (error) {
    const message = (error as Error).message;
    await deps.db.update(websites).set({ status: "failed_to_index", lastError: message, updatedAt: new Date() }).where(eq(websites.id, websiteId));
    return { failed: message };
  }
}

const CLAIM: Record<string, { working: string; done: string; failed: string }> = {
  to_be_indexed: { working: "sent_for_indexing", done: "indexed", failed: "failed_to_index" },
  to_be_skipped: { working: "sent_for_skipping", done: "skipped", failed: "failed_to_skip" },
  to_be_deleted: { working: "sent_for_deletion", done: "deleted", failed: "failed_to_delete" },
};

/** Takes the next requested URLs of a website, marking them sent_for_*; safe with several workers. */
async function claimBatch(websiteId: number, deps: PipelineDeps): Promise<(UrlRecord & { requested: string })[]> {
  const result = await deps.db.execute(sql`
    update urls set status = case status
        when 'to_be_indexed' then 'sent_for_indexing' when 'to_be_skipped' then 'sent_for_skipping' else 'sent_for_deletion' end,
      metadata = metadata || jsonb_build_object('requested', status), updated_at = now()
    where id in (
      select id from urls where website_id = ${websiteId} and status in ('to_be_indexed', 'to_be_skipped', 'to_be_deleted')
      order by id limit ${BATCH} for update skip locked)
    returning id`);
  const ids = (result as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
  if (!ids.length) return [];
  const rows = await deps.db.select().from(urls).where(inArray(urls.id, ids));
  return rows.map((row) => ({ ...row, requested: String(row.metadata.requested ?? "to_be_indexed") }));
}

async function fetchPage(row: UrlRecord, robots: Robots, cleanup: CleanupRules, deps: PipelineDeps): Promise<ExtractedPage> {
  if (!robots.isAllowed(row.url)) throw new FetchRefused("Blocked by robots.txt");
  const response = await safeFetch(row.url, fetchOptions(deps));
  if (response.status !== 200) throw new FetchRefused(`The page answered HTTP ${response.status}`);
  if (response.contentType === "text/html" || response.contentType === "application/xhtml+xml") {
    return extractHtml(response.body.toString("utf8"), cleanup);
  }
  if (response.contentType === "application/pdf") return extractPdf(response.body, decodeURIComponent(new URL(response.url).pathname.split("/").pop() ?? ""));
  throw new FetchRefused(`Only HTML and PDF pages are indexed; this one is ${response.contentType || "of no declared type"}`);
}

async function indexOne(row: UrlRecord, force: boolean, robots: Robots, deps: PipelineDeps) {
  // Read per page, so a clean-up rule saved while a website is being indexed acts on the next page.
  const page = await fetchPage(row, robots, await cleanupRulesFor(row.appId, deps.db), deps);
  const hash = createHash("sha256").update(page.title).update("\n").update(page.text).digest("hex");
  const { requested: _r, force_index: _f, error_message: _e, ...metadata } = row.metadata;
  if (hash === row.contentHash && !force) {
    await deps.db.update(urls).set({ status: "indexed", indexedAt: new Date(), metadata, updatedAt: new Date() }).where(eq(urls.id, row.id));
    return;
  }
  const pieces = chunkBlocks(page.blocks);
  await deps.db.transaction(async (tx) => {
    await replaceChunks(tx, { appId: row.appId, urlId: row.id }, pieces);
    await tx.update(urls).set({
      status: "indexed", title: cutText(page.title, 500), contentHash: hash, indexedAt: new Date(), metadata, updatedAt: new Date(),
    }).where(eq(urls.id, row.id));
  });
}

/** Works through every requested URL of a website (index, skip, delete) until none is left. */
export async function processWebsite(websiteId: number, deps: PipelineDeps) {
  const website = await loadWebsite(websiteId, deps);
  if (!website) return { skipped: "website gone" };
  const gate = new HostGate(deps.config.crawlConcurrencyPerHost);
  const robotsByOrigin = new Map<string, Promise<Robots>>();
  const robotsFor = (url: string) => {
    const origin = new URL(url).origin;
    let robots = robotsByOrigin.get(origin);
    if (!robots) robotsByOrigin.set(origin, (robots = readRobots(origin, fetchOptions(deps))));
    return robots;
  };
  const done: Record<string, number> = {};
  for (;;) {
    const batch = await claimBatch(websiteId, deps);
    if (!batch.length) break;
    await Promise.all(batch.map(async (row) => {
      const plan = CLAIM[row.requested] ?? CLAIM.to_be_indexed;
      try {
        if (plan.done === "indexed") {
          const robots = await robotsFor(row.url);
          await gate.run(new URL(row.url).host, robots.crawlDelaySeconds, () => indexOne(row, row.metadata.force_index === true, robots, deps));
        } else {
          const { requested: _r, force_index: _f, error_message: _e, ...metadata } = row.metadata;
          await deps.db.transaction(async (tx) => {
            await replaceChunks(tx, { appId: row.appId, urlId: row.id }, []);
            await tx.update(urls).set({ status: plan.done, metadata, updatedAt: new Date() }).where(eq(urls.id, row.id));
          });
        }
        done[plan.done] = (done[plan.done] ?? 0) + 1;
      } catch (error) {
        const message = error instanceof FetchRefused || error instanceof Error ? error.message : String(error);
        const { requested: _r, force_index: _f, ...metadata } = row.metadata;
        await deps.db.update(urls).set({ status: plan.failed, metadata: { ...metadata, error_message: cutText(message, 1000) }, updatedAt: new Date() }).where(eq(urls.id, row.id));
        done[plan.failed] = (done[plan.failed] ?? 0) + 1;
      }
    }));
  }
  return done;
}

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
    await deps.db.update(websites).set({ lastError: `Sitemap refresh: no sitemap found (${found.errors.join("; ")})`, updatedAt: new Date() }).where(eq(websites.id, websiteId));
    return { failed: "no sitemap" };
  }
  const listed = new Map(found.entries
    .filter((e) => sameSite(e.url, website.url) && passesPatterns(e.url, website.allowedPatterns, website.skipPatterns) && robots.isAllowed(e.url))
    .map((e) => [e.url, e]));
  const existing = await deps.db.select({ id: urls.id, url: urls.url, lastmod: urls.lastmod, status: urls.status }).from(urls).where(eq(urls.websiteId, websiteId));
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
          await deps.db.update(urls).set({ sitemapRefreshReviewStatus: "changed", lastmod: listed.get(row.url)!.lastmod, updatedAt: new Date() }).where(eq(urls.id, id));
        }
      } else if (slice.length) {
        await deps.db.update(urls).set({ sitemapRefreshReviewStatus: mark, updatedAt: new Date() }).where(inArray(urls.id, slice));
      }
    }
  }
  const fresh = [...listed.values()].filter((e) => !known.has(e.url));
  const added = await addUrls(website, fresh.map((e) => ({ url: e.url, lastmod: e.lastmod, review: "new" })), deps);
  await deps.db.update(websites).set({ sitemaps: found.sitemaps, updatedAt: new Date() }).where(eq(websites.id, websiteId));
  await updateSitemapDiff(websiteId, deps);
  await refreshUrlsCount(websiteId, deps);
  return { new: added, removed: marks.removed.length, changed: marks.changed.length, unchanged: marks.unchanged.length };
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
  return [...new Set((result as unknown as { rows: { website_id: number }[] }).rows.map((r) => Number(r.website_id)))];
}

/**
 * After a crash, URLs left in sent_for_* go back to their to_be_* state so a new run picks them
 * up, and websites still waiting for sitemap generation are named for another try.
 */
export async function recoverStuckUrls(deps: PipelineDeps, olderThanSeconds: number) {
  const cutoff = new Date(Date.now() - olderThanSeconds * 1000);
  const waiting = await deps.db.select({ id: websites.id }).from(websites)
    .where(sql`${websites.status} = 'pending_sitemap_generation' and ${websites.updatedAt} <= ${cutoff}`);
  const result = await deps.db.execute(sql`
    update urls set status = case status
        when 'sent_for_indexing' then 'to_be_indexed' when 'sent_for_skipping' then 'to_be_skipped' else 'to_be_deleted' end,
      updated_at = now()
    where status in ('sent_for_indexing', 'sent_for_skipping', 'sent_for_deletion') and updated_at <= ${cutoff}
    returning website_id`);
  return {
    toProcess: [...new Set((result as unknown as { rows: { website_id: number }[] }).rows.map((r) => Number(r.website_id)))],
    toDiscover: waiting.map((w) => w.id),
  };
}

