import { and, eq, isNull, or, sql } from "drizzle-orm";
import { urls, websites } from "../../db/schema";
import { ClaimLost, heldByLiveWorker } from "../../jobs/leases";
import type { WorkerDeps } from "../../deps";
import { addUrls, fetchOptions, isListed, sitemapFailureLine, type WebsiteRecord } from "./pipeline-shared";
import {
  MAX_URLS_PER_WEBSITE,
  NoSitemapFound,
  passesPatterns,
  readRobots,
  sameSite,
  readSitemaps,
  sitemapCandidates,
  sitemapsError,
} from "./sitemaps";
import { requestStatus } from "./request-status";
import { pageAddress } from "./page-address";
import { pagesOfWebsite } from "./known-pages";
import { FinalFailure } from "../../jobs/final-failure";

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
    const urlsCount = sql<number>`(select count(*) from urls where urls.website_id = ${websiteId})::int`;
    const [held] = await deps.db
      .update(websites)
      .set({ ...values, urlsCount, claimedBy: null, updatedAt: new Date() })
      .where(and(eq(websites.id, websiteId), eq(websites.claimedBy, deps.workerId)))
      .returning({ id: websites.id });
    if (!held) throw new ClaimLost("Sitemap generation was taken back by another worker");
  };
  try {
    // Pages its address or patterns no longer take in (they were changed) leave the assistant.
    await deleteOutsideSettings(website, deps);
    if (website.siteMap === "few_urls") {
      // Stored as '+ Links' and sitemaps store a page, each once, and not again when the website
      // already has it written otherwise (a row stored before): one URL a page.
      const given = [...new Set((website.seedUrls.length ? website.seedUrls : [website.url]).map(pageAddress))];
      const known = await pagesOfWebsite(website.id, given, deps);
      const added = await addUrls(
        website,
        given.filter((url) => !known.has(url)).map((url) => ({ url })),
        deps,
      );
      await finish({ status: "sitemap_generated", sitemaps: [] });
      return { added };
    }
    const origin = new URL(website.url).origin;
    const robots = await readRobots(origin, fetchOptions(deps));
    const found = await readSitemaps(sitemapCandidates(website.url, robots), fetchOptions(deps), {
      keep: (entry) => isListed(entry, website, robots),
      maxEntries: MAX_URLS_PER_WEBSITE,
      guessed: robots.sitemaps.length === 0,
    });
    const entries = found.entries;
    if (!found.sitemaps.length) throw new NoSitemapFound(found.errors);
    const added = await addUrls(website, entries, deps, true);
    await finish({
      status: "sitemap_generated",
      sitemaps: found.sitemaps,
      lastError: sitemapsError(found, robots),
    });
    return { added, sitemaps: found.sitemaps.length, errors: found.errors.length };
  } catch (error) {
    if (error instanceof ClaimLost) return { skipped: error.message };
    // The website's row and the job say the same plain line; the log has the whole error.
    const line = sitemapFailureLine("Sitemap generation", websiteId, error, deps);
    await finish({ status: "failed_to_index", lastError: line }).catch((lost) => {
      if (!(lost instanceof ClaimLost)) throw lost;
    });
    throw new FinalFailure(line);
  }
}

/**
 * Takes a website waiting for sitemap generation for this worker; null when it is not waiting
 * (a duplicate job) or a live worker already has it.
 */
async function claimDiscovery(websiteId: number, deps: WorkerDeps): Promise<WebsiteRecord | null> {
  const [website] = await deps.db
    .update(websites)
    .set({ claimedBy: deps.workerId, lastError: null, updatedAt: new Date() })
    .where(
      and(
        eq(websites.id, websiteId),
        eq(websites.status, "pending_sitemap_generation"),
        or(isNull(websites.claimedBy), sql`not ${heldByLiveWorker(websites.claimedBy)}`),
      ),
    )
    .returning();
  return website ?? null;
}

/**
 * Asks for the deletion of the website's pages that its settings no longer take in: those of
 * another host than its address's (discovery and "+ Links" keep only its own), and those its
 * sitemaps listed that a skip pattern now names or an allowed pattern no longer does. Discovery
 * only adds pages, so without this a page of the old address, or one a new skip pattern names, kept
 * answering. Pages given by hand keep their place whatever the patterns say; robots.txt, which may
 * change any day, is not read here.
 */
async function deleteOutsideSettings(website: WebsiteRecord, deps: WorkerDeps) {
  const pages = await deps.db
    .select({ id: urls.id, url: urls.url, inSitemap: urls.inSitemap })
    .from(urls)
    .where(
      and(eq(urls.websiteId, website.id), sql`${urls.status} not in ('deleted', 'to_be_deleted', 'sent_for_deletion')`),
    );
  const outside = pages
    .filter(
      (page) =>
        !sameSite(page.url, website.url) ||
        (page.inSitemap && !passesPatterns(page.url, website.allowedPatterns, website.skipPatterns)),
    )
    .map((page) => page.id);
  if (!outside.length) return;
  for (let at = 0; at < outside.length; at += 10_000)
    await requestStatus(
      website.appId,
      { websiteId: website.id, urlIds: outside.slice(at, at + 10_000) },
      "to_be_deleted",
      false,
      deps,
    );
  await deps.jobs.send("website-process", { websiteId: website.id });
}
