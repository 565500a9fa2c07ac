import { and, eq, inArray, sql } from "drizzle-orm";
import { cleanupRulesFor } from "../../controls/finetunings";
import { urls } from "../../db/schema";
import { isDatabaseUnavailable } from "../../db/errors";
import { claimsInHand } from "../../jobs/in-hand";
import { ClaimLost } from "../../jobs/leases";
import { replaceChunks } from "../index/chunk-store";
import { IndexedPageWriter } from "../index/indexed-page-writer";
import { addToRefreshRecord } from "../index/refresh-record";
import { queueRunsAfterChange } from "../../testing/auto-runs";
import { chunkBlocks } from "../index/chunk";
import type { CleanupRules } from "../extract/extract-html";
import { extractPdf, UnreadablePdf } from "../extract/extract-pdf";
import { extractInPool } from "./extract-pool";
import { extracted, type ExtractedChunks } from "./extracted";
import { FetchRefused, safeFetch, type FetchOptions, type Fetched } from "./fetcher";
import { HostGate, MAX_PAUSE_MS } from "./host-gate";
import { pagesOfWebsite } from "./known-pages";
import { pageAddress } from "./page-address";
import { lastChangedBy } from "./lastmod";
import type { WorkerDeps } from "../../deps";
import { fetchOptions, loadWebsite, type PipelineDeps } from "./pipeline-shared";
import { MAX_URLS_PER_WEBSITE, readRobots, readSitemaps, sameSite, sitemapCandidates, type Robots } from "./sitemaps";
import { cutText } from "@contract";

type UrlRecord = typeof urls.$inferSelect;

/** URLs claimed by one statement: a job holds one to two batches beyond the pages its lanes work on. */
const BATCH = 50;

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
  const rows = await deps.db
    .update(urls)
    .set({
      status: sql`case ${urls.status} when 'to_be_indexed' then 'sent_for_indexing' when 'to_be_skipped' then 'sent_for_skipping' else 'sent_for_deletion' end`,
      // The set list reads the row as it was: the requested status is kept for the outcome.
      metadata: sql`${urls.metadata} || jsonb_build_object('requested', ${urls.status})`,
      claimedBy: deps.workerId,
      updatedAt: new Date(),
    })
    .where(
      inArray(
        urls.id,
        sql`(
      select id from urls where website_id = ${websiteId} and status in ('to_be_indexed', 'to_be_skipped', 'to_be_deleted')
      order by id limit ${BATCH} for update skip locked)`,
      ),
    )
    .returning();
  return rows
    .sort((a, b) => a.id - b.id)
    .map((row) => ({ ...row, requested: String(row.metadata.requested ?? "to_be_indexed") }));
}

/** Why a page is not indexed when nothing readable came out of it. */
export const NO_READABLE_TEXT = "No readable text on the page";

/** A reason the page itself gives for not being indexed, in words for the operator. */
class NotIndexable extends Error {}

/** Fetches a page through the host's politeness gate: only the request itself waits its turn. */
async function fetchPage(
  row: UrlRecord,
  robots: Robots,
  gate: HostGate,
  deps: PipelineDeps,
  validators: FetchOptions["validators"],
) {
  if (robots.unreadable)
    throw new FetchRefused(
      `The site's robots.txt ${robots.unreadable}, so none of its pages is fetched until it can be; index the page again later`,
    );
  if (!robots.isAllowed(row.url)) throw new FetchRefused("Blocked by robots.txt");
  const host = new URL(row.url).host;
  let response: Fetched;
  for (let attempt = 0; ; attempt++) {
    response = await gate.run(host, robots.crawlDelaySeconds, async () => {
      // The site asked for a rest longer than a run waits: its pages are not asked for meanwhile.
      const resting = gate.pausedFor(host);
      if (resting > MAX_PAUSE_MS) throw new FetchRefused(busyLine(resting));
      const answer = await safeFetch(row.url, { ...fetchOptions(deps), validators });
      // Every request to the host waits, not only this page's: the site asked the crawler to slow
      // down. Paused before the gate lets the next request start.
      const wait = busyWaitMs(answer);
      if (wait !== null) gate.pause(host, wait);
      return answer;
    });
    const wait = busyWaitMs(response);
    if (wait === null) break;
    if (wait > MAX_PAUSE_MS) throw new FetchRefused(busyLine(wait, response.status));
    if (attempt >= BUSY_RETRIES)
      throw new FetchRefused(
        `The site is busy (HTTP ${response.status}) and still was after the crawler waited as it asked; index the page again later`,
      );
  }
  // A page that redirects off its site (to a sign-in service, another domain) is not this
  // website's page, whatever it says; its own host with or without "www." still is.
  if (!sameHostOrWww(response.url, row.url))
    throw new FetchRefused(`The page redirects to ${cutText(response.url, 300)}, outside this website`);
  // A page indexed before that its site now says is gone; one never indexed just failed.
  if ((response.status === 404 || response.status === 410) && row.contentHash !== null)
    throw new PageGone(`The page is gone (HTTP ${response.status})`);
  if (response.status !== 200 && !(response.status === 304 && validators))
    throw new FetchRefused(`The page answered HTTP ${response.status}`);
  return response;
}

/** How many times a page is asked for again after its site said it was busy. */
const BUSY_RETRIES = 2;
/** The wait a 429 without Retry-After gets: the site asked to slow down without saying how much. */
const DEFAULT_BUSY_WAIT_MS = 10_000;

/**
 * How long the site asked the crawler to wait before asking again (ms): a 429 (too many requests)
 * or a 503 (unavailable) with Retry-After, in seconds or as a date; a 429 without one waits
 * `DEFAULT_BUSY_WAIT_MS`. A run waits up to `MAX_PAUSE_MS` and asks again. Null for any other answer, and for a 503 that does not say when: the
 * site is down, not busy.
 */
export function busyWaitMs(response: Pick<Fetched, "status" | "retryAfter">, now = Date.now()): number | null {
  if (response.status !== 429 && response.status !== 503) return null;
  const said = response.retryAfter?.trim() ?? "";
  let wait: number | null = null;
  if (/^\d{1,10}$/.test(said)) wait = Number(said) * 1000;
  else if (said && !Number.isNaN(Date.parse(said))) wait = Math.max(0, Date.parse(said) - now);
  if (wait === null) return response.status === 429 ? DEFAULT_BUSY_WAIT_MS : null;
  return wait;
}

/** What a page says when its site asked for a rest longer than a run waits. */
function busyLine(waitMs: number, status?: number) {
  const minutes = Math.ceil(waitMs / 60_000);
  const rest = minutes >= 120 ? `${Math.ceil(minutes / 60)} hours` : `${minutes} minutes`;
  return `The site is busy${status ? ` (HTTP ${status})` : ""} and asked the crawler not to come back for ${rest}; index the page again later`;
}

/** Whether two addresses are on one host, counting `www.example.org` and `example.org` as one. */
export function sameHostOrWww(a: string, b: string) {
  const host = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  return host(a) === host(b);
}

/** A page its site says is gone (404, 410): its passages stop answering. */
export class PageGone extends NotIndexable {}

/**
 * A page that redirects to another URL the website has (an old address the sitemap still lists,
 * `/a` sending to `/a/`) is that page: indexed under both, its passages would answer twice and
 * outlive a deletion of either. The URL it redirects to keeps the page, and the old address's
 * passages stop answering, as a gone page's do.
 */
async function refuseMovedToKnownPage(row: UrlRecord, finalUrl: string, deps: WorkerDeps) {
  const target = pageAddress(finalUrl);
  if (target === pageAddress(row.url)) return;
  if (!(await pagesOfWebsite(row.websiteId, [target], deps)).size) return;
  throw new PageGone(
    `The page redirects to ${cutText(target, 300)}, which this website has as a URL of its own: that URL keeps the page`,
  );
}

/**
 * Whether a page already indexed need not be fetched at all: its sitemap's lastmod (as the
 * sitemap reads now) is no later than when it was last indexed or checked.
 */
export function unchangedSinceChecked(row: Pick<UrlRecord, "lastmod" | "checkedAt" | "indexedAt" | "contentHash">) {
  const checked = row.checkedAt ?? row.indexedAt;
  const lastmod = row.lastmod ? lastChangedBy(row.lastmod) : null;
  return lastmod !== null && checked !== null && row.contentHash !== null && lastmod <= checked.getTime();
}

/**
 * Before any page is fetched: the website's requested pages, indexed before, whose sitemap lastmod
 * (as it reads now) is no later than their last check, are checked and indexed as they are, in a
 * few statements rather than one a page, each counting its pages in the refresh record. Force
 * Index requests are left to be fetched.
 */
async function skipUnchangedBySitemap(websiteId: number, lastmods: Map<string, string>, deps: PipelineDeps) {
  const entries = [...lastmods].flatMap(([url, lastmod]) => {
    const until = lastChangedBy(lastmod);
    return until === null ? [] : [{ url, until }];
  });
  let skipped = 0;
  for (let i = 0; i < entries.length; i += 1000) {
    skipped += await deps.db.transaction(async (tx) => {
      const result = await tx.execute(sql`
        update urls set status = 'indexed', indexed_at = now(), checked_at = now(), updated_at = now()
        from jsonb_to_recordset(${JSON.stringify(entries.slice(i, i + 1000))}::jsonb) as entry(url text, until double precision)
        where urls.website_id = ${websiteId} and urls.url = entry.url and urls.status = 'to_be_indexed' and urls.content_hash is not null
          and coalesce(urls.metadata->>'force_index', '') <> 'true'
          and entry.until <= extract(epoch from coalesce(urls.checked_at, urls.indexed_at)) * 1000
        returning urls.id`);
      const settled = (result as unknown as { rows: unknown[] }).rows.length;
      await addToRefreshRecord(tx, websiteId, "not_fetched", settled);
      return settled;
    });
  }
  return skipped;
}

/** Types a server names when it does not say what the bytes are: the bytes themselves tell. */
const UNSAID_TYPES = new Set([
  "",
  "application/octet-stream",
  "binary/octet-stream",
  "application/binary",
  "application/x-download",
  "application/force-download",
  "application/unknown",
]);

/** The start of a page of HTML, after any byte-order mark, blank space and comments. */
const HTML_START = /^(?:\ufeff)?(?:\s|<!--[\s\S]*?-->)*<(?:!doctype\s+html|html|head|body)[\s>]/i;

/**
 * What the answer is, by its declared type and its own first bytes: a PDF starts with `%PDF-`
 * whatever its server calls it (download scripts send PDFs as `text/html`), and a page of HTML sent
 * as bytes of no particular kind (`application/octet-stream`) starts as HTML does.
 */
export function kindOf(contentType: string, body: Buffer): "html" | "pdf" | null {
  if (body.subarray(0, 5).toString("latin1") === "%PDF-") return "pdf";
  if (contentType === "text/html" || contentType === "application/xhtml+xml") return "html";
  if (contentType === "application/pdf") return "pdf";
  if (UNSAID_TYPES.has(contentType) && HTML_START.test(body.subarray(0, 2048).toString("utf8"))) return "html";
  return null;
}

/** The page's title, text and chunks: HTML on the extraction pool's threads, PDFs through unpdf. */
async function extractPage(
  response: Awaited<ReturnType<typeof safeFetch>>,
  cleanup: CleanupRules,
): Promise<ExtractedChunks> {
  const kind = kindOf(response.contentType, response.body);
  if (kind === "html") return extractInPool({ html: response.body, charset: response.charset, rules: cleanup });
  if (kind === "pdf") {
    const pdf = await extractPdf(
      response.body,
      decodeURIComponent(new URL(response.url).pathname.split("/").pop() ?? ""),
    );
    return extracted(pdf.title, pdf.text, chunkBlocks(pdf.blocks, { title: pdf.title }));
  }
  throw new FetchRefused(
    `Only HTML and PDF pages are indexed; this one is ${response.contentType || "of no declared type"}`,
  );
}

/**
 * Writes a URL's outcome only while this worker still holds it (inside `db`, a transaction when
 * chunks change with it): work taken back from a worker whose lease lapsed is not written twice.
 */
async function finishUrl(db: PipelineDeps["db"], row: UrlRecord, values: Partial<UrlRecord>, deps: WorkerDeps) {
  const [held] = await db
    .update(urls)
    .set({ ...values, claimedBy: null, updatedAt: new Date() })
    .where(and(eq(urls.id, row.id), eq(urls.claimedBy, deps.workerId)))
    .returning({ id: urls.id });
  if (!held) throw new ClaimLost(`${row.url} was taken back by another worker`);
}

interface PageWork {
  robots: Robots;
  gate: HostGate;
  cleanup: () => Promise<CleanupRules>;
  writer: IndexedPageWriter;
  /** The page's lastmod in its website's sitemaps as they are now (read once a run), or null. */
  currentLastmod: (url: string) => Promise<string | null>;
}

/**
 * The lastmod of each page in the website's sitemaps as they read now, for a run that re-indexes
 * pages: the lastmod stored with a URL is the sitemap review's baseline and may be old. Empty for
 * a website of given URLs, or when the sitemaps cannot be read (every page is then fetched).
 */
async function currentLastmods(website: { url: string; siteMap: string }, robots: Robots, deps: PipelineDeps) {
  if (website.siteMap !== "full_website") return new Map<string, string>();
  try {
    const found = await readSitemaps(sitemapCandidates(website.url, robots), fetchOptions(deps), {
      keep: (entry) => sameSite(entry.url, website.url),
      maxEntries: MAX_URLS_PER_WEBSITE,
      guessed: robots.sitemaps.length === 0,
    });
    return new Map(found.entries.flatMap((entry) => (entry.lastmod ? [[entry.url, entry.lastmod] as const] : [])));
  } catch {
    return new Map<string, string>();
  }
}

/** A client's clean-up rules as a page's metadata keeps those it was extracted with: their selectors, sorted. */
const cleanupKeyOf = (rules: CleanupRules) => [...new Set(rules.removeSelectors ?? [])].sort();

/** How a page requested for indexing came out: what a refresh reports. */
export type IndexOutcome = "new" | "changed" | "unchanged" | "not_fetched";

/**
 * Indexes one page. A page indexed before is asked for only if changed: skipped when its sitemap's
 * lastmod says it has not changed since it was checked, and fetched with its validators otherwise
 * (a 304 is unchanged, no body read); a page fetched whole is extracted, and its passages are
 * written only when its text changed. Force Index fetches and writes it whatever it says.
 */
async function indexOne(row: UrlRecord, force: boolean, work: PageWork, deps: WorkerDeps): Promise<IndexOutcome> {
  const { requested: _r, force_index: _f, error_message: _e, cleaned_with: cleanedWith, ...kept } = row.metadata;
  // The clean-up rules the page's passages were cut with: when they have changed since, the page is
  // fetched and extracted again though it has not changed itself (its sitemap's lastmod, or a 304 to
  // its validators, would say it need not be), so that a rule saved acts on pages indexed before it.
  const rules = cleanupKeyOf(await work.cleanup());
  const metadata = rules.length ? { ...kept, cleaned_with: rules } : kept;
  const sameRules = JSON.stringify(Array.isArray(cleanedWith) ? cleanedWith : []) === JSON.stringify(rules);
  const held = !force && row.contentHash !== null && sameRules;
  const checked = { status: "indexed", indexedAt: new Date(), checkedAt: new Date(), metadata };
  if (held && unchangedSinceChecked({ ...row, lastmod: await work.currentLastmod(row.url) })) {
    await deps.db.transaction(async (tx) => {
      await finishUrl(tx, row, checked, deps);
      await addToRefreshRecord(tx, row.websiteId, "not_fetched");
    });
    return "not_fetched";
  }
  const validators = held ? { etag: row.etag, lastModified: row.lastModified } : undefined;
  const response = await fetchPage(row, work.robots, work.gate, deps, validators);
  await refuseMovedToKnownPage(row, response.url, deps);
  // Unchanged pages are written in groups too: a refresh is mostly them.
  const unchanged = {
    row,
    title: row.title,
    contentHash: row.contentHash ?? "",
    metadata,
    chunks: null,
    outcome: "unchanged" as const,
  };
  if (response.status === 304) {
    await work.writer.write(unchanged);
    return "unchanged";
  }
  const page = await extractPage(response, await work.cleanup());
  // An operator who sees "indexed" expects the assistant to know the page: no text is a failure.
  if (!page.chunks.length || !page.hasText) throw new NotIndexable(NO_READABLE_TEXT);
  const hash = page.contentHash;
  const answered = { etag: response.etag, lastModified: response.lastModified };
  if (hash === row.contentHash && !force) {
    await work.writer.write({ ...unchanged, ...answered });
    return "unchanged";
  }
  const outcome = row.contentHash === null ? "new" : "changed";
  await work.writer.write({
    row,
    title: cutText(page.title, 500),
    contentHash: hash,
    metadata,
    chunks: page.chunks,
    ...answered,
    outcome,
  });
  return outcome;
}

/**
 * Pages of one website one job works on at once: fetches queue at the host gate, extraction at the
 * pool, writes in groups. A page spends most of its time waiting in one of those queues, so 16
 * lanes left the pool's threads idle a third of the time (docs/decisions/017); 96 kept them busy
 * while a grouped write held the database on a quiet machine (48 ran the pipeline 5–10 % slower).
 * On a machine whose cores other work shares, a grouped write takes longer and 96 lanes waited on
 * it: the extraction threads stood idle a quarter to a third of a run, and 192 lanes ran it a fifth
 * faster on PostgreSQL. A lane holds one page: ~200 pages of ~25 KB in memory.
 */
const LANES = 192;

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
  const refill = () =>
    (claiming ??= claim()
      .then((rows) => {
        claimed.push(...rows);
        exhausted = !rows.length;
      })
      .finally(() => (claiming = null)));
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
  // Read only when a page indexed before comes up: a first indexing never reads them.
  let lastmods: Promise<Map<string, string>> | null = null;
  const lastmodsNow = () =>
    (lastmods ??= robotsFor(website.url).then((robots) => currentLastmods(website, robots, deps)));
  const currentLastmod = async (url: string) => (await lastmodsNow()).get(url) ?? null;
  const done: Record<string, number> = {};
  const [{ refreshing }] = (
    (await deps.db.execute(sql`select exists (select 1 from urls
      where urls.website_id = ${websiteId} and urls.status = 'to_be_indexed' and urls.content_hash is not null) as refreshing`)) as unknown as {
      rows: { refreshing: boolean }[];
    }
  ).rows;
  if (refreshing) {
    const skipped = await skipUnchangedBySitemap(websiteId, await lastmodsNow(), deps);
    if (skipped) done.not_fetched = skipped;
  }
  // What this job claimed stays in hand until its page is done with: the worker's sweep takes
  // back only the rest, so no page is worked on twice (jobs/in-hand.ts).
  const inHand = claimsInHand("urls", deps.workerId);
  const claimedIds: number[] = [];
  const next = claimedUrls(async () => {
    cleanup = null;
    const rows = await inHand.claim(() => claimBatch(websiteId, deps));
    claimedIds.push(...rows.map((row) => row.id));
    return rows;
  });
  const lane = async () => {
    for (;;) {
      const row = await next();
      if (!row) break;
      const plan = CLAIM[row.requested] ?? CLAIM.to_be_indexed;
      try {
        if (plan.done === "indexed") {
          const work = { robots: await robotsFor(row.url), gate, cleanup: cleanupRules, writer, currentLastmod };
          const outcome = await indexOne(row, row.metadata.force_index === true, work, deps);
          done[outcome] = (done[outcome] ?? 0) + 1;
        } else {
          const { requested: _r, force_index: _f, error_message: _e, ...metadata } = row.metadata;
          // Its passages go, and with them what says they are up to date: indexing the page again must
          // fetch and write it, not find it unchanged (same hash, or a 304 to its old validators).
          const forgotten = { contentHash: null, etag: null, lastModified: null };
          await deps.db.transaction(async (tx) => {
            await finishUrl(tx, row, { status: plan.done, metadata, ...forgotten }, deps);
            await replaceChunks(tx, { appId: row.appId, urlId: row.id }, []);
          });
        }
        done[plan.done] = (done[plan.done] ?? 0) + 1;
      } catch (error) {
        const outcome =
          error instanceof ClaimLost
            ? "taken_back"
            : // Not the page's fault: it stays claimed and leaves this job's hand, and the worker's
              // sweep puts it back in line once the database answers again (jobs/in-hand.ts).
              isDatabaseUnavailable(error)
              ? "interrupted"
              : await failUrl(row, plan.failed, error, deps);
        if (error instanceof PageGone && outcome === plan.failed) done.gone = (done.gone ?? 0) + 1;
        done[outcome] = (done[outcome] ?? 0) + 1;
      } finally {
        inHand.drop([row.id]);
      }
    }
  };
  // Every lane ends before the job does, even when one fails: a lane still at work on a page
  // after the job let go of its claims could meet the same page taken back and claimed again.
  const lanes = await Promise.allSettled(Array.from({ length: LANES }, lane));
  inHand.drop(claimedIds);
  // What the assistant knows changed: the client's agents' test questions are asked again.
  if ((done.new ?? 0) + (done.changed ?? 0) + (done.gone ?? 0) + (done.deleted ?? 0) > 0) {
    await queueRunsAfterChange(website.appId, "every agent", "website indexed", deps);
  }
  // Every run rewrites URL rows, and most write passages: where nothing else vacuums (embedded
  // PGlite), the tables past autovacuum's thresholds are looked after now rather than within five minutes.
  if (Object.values(done).some(Boolean)) await deps.jobs.send("database-maintenance", {});
  // A lane that could not claim (the database went away) fails the job, which is tried again.
  const failed = lanes.find((lane) => lane.status === "rejected");
  if (failed) throw failed.reason;
  return done;
}

/**
 * What the URL says when its failure is ours (a statement the database refused, a fault in the
 * code): the operator can do nothing about the details, which name statements, values and paths.
 */
const SAVE_FAILED =
  "The page could not be saved because of an error on our side, which was logged; index it again to retry.";

/** Why a page failed, as its URL shows it: the page's own reasons as they are, ours as one sentence. */
function reasonFor(error: unknown) {
  const theirs = error instanceof FetchRefused || error instanceof NotIndexable || error instanceof UnreadablePdf;
  return theirs ? error.message : SAVE_FAILED;
}

/** Records why a URL failed (unless it was taken back meanwhile); answers the outcome to count. */
async function failUrl(row: UrlRecord, failedStatus: string, error: unknown, deps: WorkerDeps) {
  const message = reasonFor(error);
  if (message === SAVE_FAILED) deps.log.warn(`indexing ${row.url} failed: ${(error as Error)?.stack ?? String(error)}`);
  const { requested: _r, force_index: _f, ...metadata } = row.metadata;
  const values = { status: failedStatus, metadata: { ...metadata, error_message: cutText(message, 1000) } };
  // A page that failed to index counts in the refresh record with its failure, in one transaction.
  const counted = failedStatus === "failed_to_index" ? (error instanceof PageGone ? "gone" : "failed") : null;
  try {
    await deps.db.transaction(async (tx) => {
      if (error instanceof PageGone) {
        // A gone page's passages stop answering with its failure.
        await finishUrl(
          tx,
          row,
          {
            ...values,
            checkedAt: new Date(),
            changedAt: new Date(),
            contentHash: null,
            etag: null,
            lastModified: null,
          },
          deps,
        );
        await replaceChunks(tx, { appId: row.appId, urlId: row.id }, []);
      } else {
        await finishUrl(tx, row, values, deps);
      }
      if (counted) await addToRefreshRecord(tx, row.websiteId, counted);
    });
    return failedStatus;
  } catch (lost) {
    if (lost instanceof ClaimLost) return "taken_back";
    // Still claimed by this worker and no longer in hand: its sweep puts it back in line once the
    // database answers again.
    if (isDatabaseUnavailable(lost)) return "interrupted";
    throw lost;
  }
}
