import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { cleanupRulesFor } from "../controls/finetunings";
import type { ApiDeps } from "../deps";
import { urls, websites } from "../db/schema";
import { ClaimLost, heldByLiveWorker } from "../jobs/leases";
import { replaceChunks } from "./chunk-store";
import { IndexedPageWriter } from "./indexed-page-writer";
import { chunkBlocks } from "./chunk";
import type { CleanupRules } from "./extract-html";
import { extractPdf } from "./extract-pdf";
import { extractInPool } from "./extract-pool";
import { extracted, type ExtractedChunks } from "./extracted";
import { FetchRefused, safeFetch, type FetchOptions } from "./fetcher";
import { HostGate } from "./host-gate";
import { passesPatterns, readRobots, readSitemaps, sameSite, sitemapCandidates, type Robots } from "./sitemaps";
import { cutText, isWebLink, MAX_URL_LENGTH } from "@contract";

type UrlRecord = typeof urls.$inferSelect;
type WebsiteRecord = typeof websites.$inferSelect;
type PipelineDeps = Pick<ApiDeps, "db" | "config" | "log">;
/** A job handler's deps: the worker id is written into every claim it makes (see api/jobs/leases.ts). */
type WorkerDeps = PipelineDeps & { workerId: string };

const MAX_URLS_PER_WEBSITE = 100_000;
/** URLs claimed by one statement: a job holds one to two batches beyond the pages its lanes work on. */
const BATCH = 50;

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

/**
 * Inserts new URLs as pending_review (existing ones are left as they are); returns how many were new.
 * A thousand at a time, each batch one JSON parameter: Drizzle's multi-row insert binds every
 * column of every row (15,000 parameters a batch) and took twice as long on PGlite.
 */
export async function addUrls(website: WebsiteRecord, entries: { url: string; lastmod?: string | null; review?: string | null }[], deps: PipelineDeps) {
  let added = 0;
  for (let i = 0; i < entries.length; i += 1000) {
    const slice = entries.slice(i, i + 1000).map((e) => ({ url: e.url, lastmod: e.lastmod ?? null, review: e.review ?? null }));
    const inserted = await deps.db.execute(sql`
      insert into urls (app_id, website_id, url, lastmod, sitemap_refresh_review_status)
      select ${website.appId}, ${website.id}, entry.url, entry.lastmod, entry.review
      from jsonb_to_recordset(${JSON.stringify(slice)}::jsonb) as entry(url text, lastmod text, review text)
      on conflict do nothing
      returning id`);
    added += (inserted as unknown as { rows: unknown[] }).rows.length;
  }
  return added;
}

/**
 * Whether a sitemap entry is one of the website's pages to store: an http(s) address of its host
 * without control characters and of a storable length (a sitemap is outside input), passing the
 * website's patterns and robots.txt.
 */
export function isListed(entry: { url: string }, website: Pick<WebsiteRecord, "url" | "allowedPatterns" | "skipPatterns">, robots: Pick<Robots, "isAllowed">) {
  if (entry.url.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(entry.url) || !isWebLink(entry.url)) return false;
  return sameSite(entry.url, website.url) && passesPatterns(entry.url, website.allowedPatterns, website.skipPatterns) && robots.isAllowed(entry.url);
}

/**
 * Sitemap generation: robots.txt, the sitemaps it names (or /sitemap.xml), indexes and gzip
 * followed, allowed/skip patterns applied, pages of other hosts dropped. few_urls websites take
 * their given URLs only.
 */
export async function discoverWebsite(websiteId: number, deps: WorkerDeps) {
  const website = await claimDiscovery(websiteId, deps);
  if (!website) return { skipped: "not waiting for sitemap generation, or another worker has it" };
  // The end of a discovery is written only while the claim is ours: a worker whose lease lapsed
  // (and whose discovery was taken back) must not overwrite the result of the one that took it.
  const finish = async (values: Partial<WebsiteRecord>) => {
    // The count is written with the status, so no reader sees a generated sitemap of 0 URLs.
    const urlsCount = sql<number>`(select count(*) from urls where website_id = ${websiteId})::int`;
    const [held] = await deps.db.update(websites).set({ ...values, urlsCount, claimedBy: null, updatedAt: new Date() })
      .where(and(eq(websites.id, websiteId), eq(websites.claimedBy, deps.workerId))).returning({ id: websites.id });
    if (!held) throw new ClaimLost("Sitemap generation was taken back by another worker");
  };
  try {
    if (website.siteMap === "few_urls") {
      const given = website.seedUrls.length ? website.seedUrls : [website.url];
      const added = await addUrls(website, given.map((url) => ({ url })), deps);
      await finish({ status: "sitemap_generated", sitemaps: [] });
      return { added };
    }
    const origin = new URL(website.url).origin;
    const robots = await readRobots(origin, fetchOptions(deps));
    const found = await readSitemaps(sitemapCandidates(website.url, robots), fetchOptions(deps));
    const entries = found.entries
      .filter((e) => isListed(e, website, robots))
      .slice(0, MAX_URLS_PER_WEBSITE);
    if (!found.sitemaps.length) throw new Error(`No sitemap found (${found.errors.join("; ") || "none listed"})`);
    const added = await addUrls(website, entries, deps);
    await finish({
      // Misses among guessed locations (no Sitemap line in robots.txt) are not errors once one was found.
      status: "sitemap_generated", sitemaps: found.sitemaps,
      lastError: found.errors.length && robots.sitemaps.length ? cutText(found.errors.join("; "), 2000) : null,
    });
    return { added, sitemaps: found.sitemaps.length, errors: found.errors.length };
  } catch (error) {
    if (error instanceof ClaimLost) return { skipped: error.message };
    const message = (error as Error).message;
    await finish({ status: "failed_to_index", lastError: message }).catch((lost) => {
      if (!(lost instanceof ClaimLost)) throw lost;
    });
    return { failed: message };
  }
}

/**
 * Takes a website waiting for sitemap generation for this worker; null when it is not waiting
 * (a duplicate job) or a live worker already has it.
 */
async function claimDiscovery(websiteId: number, deps: WorkerDeps): Promise<WebsiteRecord | null> {
  const [website] = await deps.db.update(websites).set({ claimedBy: deps.workerId, lastError: null, updatedAt: new Date() })
    .where(and(
      eq(websites.id, websiteId), eq(websites.status, "pending_sitemap_generation"),
      or(isNull(websites.claimedBy), sql`not ${heldByLiveWorker(websites.claimedBy)}`),
    ))
    .returning();
  return website ?? null;
}

const CLAIM: Record<string, { working: string; done: string; failed: string }> = {
  to_be_indexed: { working: "sent_for_indexing", done: "indexed", failed: "failed_to_index" },
  to_be_skipped: { working: "sent_for_skipping", done: "skipped", failed: "failed_to_skip" },
  to_be_deleted: { working: "sent_for_deletion", done: "deleted", failed: "failed_to_delete" },
};

/**
 * Takes the next requested URLs of a website, marking them sent_for_* and held by this worker;
 * safe with several workers. One statement: the rows come back with the claim.
 */
async function claimBatch(websiteId: number, deps: WorkerDeps): Promise<(UrlRecord & { requested: string })[]> {
  const rows = await deps.db.update(urls)
    .set({
      status: sql`case ${urls.status} when 'to_be_indexed' then 'sent_for_indexing' when 'to_be_skipped' then 'sent_for_skipping' else 'sent_for_deletion' end`,
      // The set list reads the row as it was: the requested status is kept for the outcome.
      metadata: sql`${urls.metadata} || jsonb_build_object('requested', ${urls.status})`,
      claimedBy: deps.workerId,
      updatedAt: new Date(),
    })
    .where(inArray(urls.id, sql`(
      select id from urls where website_id = ${websiteId} and status in ('to_be_indexed', 'to_be_skipped', 'to_be_deleted')
      order by id limit ${BATCH} for update skip locked)`))
    .returning();
  return rows
    .sort((a, b) => a.id - b.id)
    .map((row) => ({ ...row, requested: String(row.metadata.requested ?? "to_be_indexed") }));
}

/** Why a page is not indexed when nothing readable came out of it. */
export const NO_READABLE_TEXT = "No readable text on the page";

/** Fetches a page through the host's politeness gate: only the request itself waits its turn. */
async function fetchPage(row: UrlRecord, robots: Robots, gate: HostGate, deps: PipelineDeps) {
  if (!robots.isAllowed(row.url)) throw new FetchRefused("Blocked by robots.txt");
  const response = await gate.run(new URL(row.url).host, robots.crawlDelaySeconds, () => safeFetch(row.url, fetchOptions(deps)));
  if (response.status !== 200) throw new FetchRefused(`The page answered HTTP ${response.status}`);
  return response;
}

/** The page's title, text and chunks: HTML on the extraction pool's threads, PDFs through unpdf. */
async function extractPage(response: Awaited<ReturnType<typeof safeFetch>>, cleanup: CleanupRules): Promise<ExtractedChunks> {
  if (response.contentType === "text/html" || response.contentType === "application/xhtml+xml") {
    return extractInPool({ html: response.body, rules: cleanup });
  }
  if (response.contentType === "application/pdf") {
    const pdf = await extractPdf(response.body, decodeURIComponent(new URL(response.url).pathname.split("/").pop() ?? ""));
    return extracted(pdf.title, pdf.text, chunkBlocks(pdf.blocks, { title: pdf.title }));
  }
  throw new FetchRefused(`Only HTML and PDF pages are indexed; this one is ${response.contentType || "of no declared type"}`);
}

/**
 * Writes a URL's outcome only while this worker still holds it (inside `db`, a transaction when
 * chunks change with it): work taken back from a worker whose lease lapsed is not written twice.
 */
async function finishUrl(db: PipelineDeps["db"], row: UrlRecord, values: Partial<UrlRecord>, deps: WorkerDeps) {
  const [held] = await db.update(urls).set({ ...values, claimedBy: null, updatedAt: new Date() })
    .where(and(eq(urls.id, row.id), eq(urls.claimedBy, deps.workerId))).returning({ id: urls.id });
  if (!held) throw new ClaimLost(`${row.url} was taken back by another worker`);
}

interface PageWork {
  robots: Robots;
  gate: HostGate;
  cleanup: () => Promise<CleanupRules>;
  writer: IndexedPageWriter;
}

async function indexOne(row: UrlRecord, force: boolean, work: PageWork, deps: WorkerDeps) {
  const response = await fetchPage(row, work.robots, work.gate, deps);
  const page = await extractPage(response, await work.cleanup());
  // An operator who sees "indexed" expects the assistant to know the page: no text is a failure.
  if (!page.chunks.length || !page.hasText) throw new Error(NO_READABLE_TEXT);
  const hash = page.contentHash;
  const { requested: _r, force_index: _f, error_message: _e, ...metadata } = row.metadata;
  if (hash === row.contentHash && !force) {
    await finishUrl(deps.db, row, { status: "indexed", indexedAt: new Date(), metadata }, deps);
    return;
  }
  await work.writer.write({ row, title: cutText(page.title, 500), contentHash: hash, metadata, chunks: page.chunks });
}

/**
 * Pages of one website one job works on at once: fetches queue at the host gate, extraction at the
 * pool, writes in groups. A page spends most of its time waiting in one of those queues, so 16
 * lanes left the pool's threads idle a third of the time (docs/decisions/017); 96 keep them busy
 * while a grouped write holds the database (48 ran the pipeline 5–10 % slower). A lane holds one
 * page: ~100 pages of ~25 KB in memory.
 */
const LANES = 96;

/**
 * The website's requested URLs, claimed a batch at a time (`claim`) as the lanes need them: a lane that
 * finishes a page takes the next at once instead of waiting for the slowest page of its batch. The
 * next batch is claimed while half of a batch is still in hand: waiting for a claim queued behind
 * the database's writes kept the lanes idle a third of their time on PGlite (docs/decisions/017).
 */
export function claimedUrls<Row>(claim: () => Promise<Row[]>, batchSize = BATCH) {
  const claimed: Row[] = [];
  let claiming: Promise<void> | null = null;
  let exhausted = false;
  const refill = () => (claiming ??= claim().then((rows) => {
    claimed.push(...rows);
    exhausted = !rows.length;
  }).finally(() => (claiming = null)));
  return async function next() {
    while (!claimed.length && !exhausted) await refill();
    const row = claimed.shift() ?? null;
    // A claim made ahead that fails fails the lane waiting for it, as a claim of its own would.
    if (row && !exhausted && claimed.length < batchSize / 2) refill().catch(() => {});
    return row;
  };
}

/** Works through every requested URL of a website (index, skip, delete) until none is left. */
export async function processWebsite(websiteId: number, deps: WorkerDeps) {
  const website = await loadWebsite(websiteId, deps);
  if (!website) return { skipped: "website gone" };
  const gate = new HostGate(deps.config.crawlConcurrencyPerHost);
  const writer = new IndexedPageWriter(deps.db, deps.workerId);
  const robotsByOrigin = new Map<string, Promise<Robots>>();
  const robotsFor = (url: string) => {
    const origin = new URL(url).origin;
    let robots = robotsByOrigin.get(origin);
    if (!robots) robotsByOrigin.set(origin, (robots = readRobots(origin, fetchOptions(deps))));
    return robots;
  };
  // Read again with each claimed batch, so a clean-up rule saved while a website is being indexed acts within the next batch.
  let cleanup: Promise<CleanupRules> | null = null;
  const cleanupRules = () => (cleanup ??= cleanupRulesFor(website.appId, deps.db));
  const next = claimedUrls(() => {
    cleanup = null;
    return claimBatch(websiteId, deps);
  });
  const done: Record<string, number> = {};
  const lane = async () => {
    for (;;) {
      const row = await next();
      if (!row) break;
      const plan = CLAIM[row.requested] ?? CLAIM.to_be_indexed;
      try {
        if (plan.done === "indexed") {
          const work = { robots: await robotsFor(row.url), gate, cleanup: cleanupRules, writer };
          await indexOne(row, row.metadata.force_index === true, work, deps);
        } else {
          const { requested: _r, force_index: _f, error_message: _e, ...metadata } = row.metadata;
          await deps.db.transaction(async (tx) => {
            await finishUrl(tx, row, { status: plan.done, metadata }, deps);
            await replaceChunks(tx, { appId: row.appId, urlId: row.id }, []);
          });
        }
        done[plan.done] = (done[plan.done] ?? 0) + 1;
      } catch (error) {
        const outcome = error instanceof ClaimLost ? "taken_back" : await failUrl(row, plan.failed, error, deps);
        done[outcome] = (done[outcome] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return done;
}

/** Records why a URL failed (unless it was taken back meanwhile); answers the outcome to count. */
async function failUrl(row: UrlRecord, failedStatus: string, error: unknown, deps: WorkerDeps) {
  const message = error instanceof FetchRefused || error instanceof Error ? error.message : String(error);
  const { requested: _r, force_index: _f, ...metadata } = row.metadata;
  try {
    await finishUrl(deps.db, row, { status: failedStatus, metadata: { ...metadata, error_message: cutText(message, 1000) } }, deps);
    return failedStatus;
  } catch (lost) {
    if (lost instanceof ClaimLost) return "taken_back";
    throw lost;
  }
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
    .filter((e) => isListed(e, website, robots))
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
 * After a crash: URLs in sent_for_* and sitemap generations held by no live worker (its lease
 * lapsed, or the claim predates leases) go back in line. Answers the websites to process and to
 * discover again. Work of a live worker is never touched, however long it takes.
 */
export async function takeBackAbandonedUrls(deps: PipelineDeps) {
  const released = await deps.db.update(websites).set({ claimedBy: null, updatedAt: new Date() })
    .where(and(eq(websites.status, "pending_sitemap_generation"), sql`${websites.claimedBy} is not null`, sql`not ${heldByLiveWorker(websites.claimedBy)}`))
    .returning({ id: websites.id });
  const result = await deps.db.execute(sql`
    update urls set status = case status
        when 'sent_for_indexing' then 'to_be_indexed' when 'sent_for_skipping' then 'to_be_skipped' else 'to_be_deleted' end,
      claimed_by = null, updated_at = now()
    where urls.status in ('sent_for_indexing', 'sent_for_skipping', 'sent_for_deletion') and not ${heldByLiveWorker(urls.claimedBy)}
    returning website_id`);
  return {
    toProcess: [...new Set((result as unknown as { rows: { website_id: number }[] }).rows.map((r) => Number(r.website_id)))],
    toDiscover: released.map((w) => w.id),
  };
}

/**
 * Websites waiting for sitemap generation longer than `olderThanSeconds` that no worker has
 * started: their job was lost (a process stopped between saving the website and queueing it).
 */
export async function websitesAwaitingDiscovery(deps: PipelineDeps, olderThanSeconds: number) {
  const cutoff = new Date(Date.now() - olderThanSeconds * 1000);
  const waiting = await deps.db.select({ id: websites.id }).from(websites)
    .where(and(eq(websites.status, "pending_sitemap_generation"), isNull(websites.claimedBy), sql`${websites.updatedAt} <= ${cutoff}`));
  return waiting.map((w) => w.id);
}
