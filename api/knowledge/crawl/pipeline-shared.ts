import { eq, sql } from "drizzle-orm";
import type { ApiDeps } from "../../deps";
import { websites } from "../../db/schema";
import type { FetchOptions } from "./fetcher";
import { NoSitemapFound, passesPatterns, sameSite, type Robots } from "./sitemaps";
import { isWebLink, MAX_URL_LENGTH } from "@contract";
import { isDatabaseUnavailable } from "../../db/errors";
import { failedJobLine } from "../../jobs/shown-output";

export type WebsiteRecord = typeof websites.$inferSelect;
export type PipelineDeps = Pick<ApiDeps, "db" | "config" | "log">;

export const fetchOptions = (deps: PipelineDeps): FetchOptions => ({
  allowPrivate: deps.config.crawlAllowPrivate,
  localExceptions: deps.config.crawlLocalExceptions,
  timeoutMs: deps.config.crawlTimeoutMs,
});

export async function loadWebsite(websiteId: number, deps: PipelineDeps) {
  const [website] = await deps.db.select().from(websites).where(eq(websites.id, websiteId));
  return website ?? null;
}

export async function refreshUrlsCount(websiteId: number, deps: PipelineDeps) {
  await deps.db.execute(
    sql`update websites set urls_count = (select count(*) from urls where website_id = ${websiteId}), updated_at = now() where id = ${websiteId}`,
  );
}

/**
 * Inserts new URLs as pending_review (existing ones are left as they are); returns how many were new.
 * A thousand at a time, each batch one JSON parameter: Drizzle's multi-row insert binds every
 * column of every row (15,000 parameters a batch) and took twice as long on PGlite.
 */
export async function addUrls(
  website: WebsiteRecord,
  entries: { url: string; lastmod?: string | null; review?: string | null }[],
  deps: PipelineDeps,
  /** Read from the website's sitemaps (else given by hand). */
  fromSitemap = false,
) {
  let added = 0;
  for (let i = 0; i < entries.length; i += 1000) {
    const slice = entries
      .slice(i, i + 1000)
      .map((e) => ({ url: e.url, lastmod: e.lastmod ?? null, review: e.review ?? null }));
    const inserted = await deps.db.execute(sql`
      insert into urls (app_id, website_id, url, lastmod, sitemap_refresh_review_status, in_sitemap)
      select ${website.appId}, ${website.id}, entry.url, entry.lastmod, entry.review, ${fromSitemap}
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
export function isListed(
  entry: { url: string },
  website: Pick<WebsiteRecord, "url" | "allowedPatterns" | "skipPatterns">,
  robots: Pick<Robots, "isAllowed">,
) {
  if (entry.url.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(entry.url) || !isWebLink(entry.url)) return false;
  return (
    sameSite(entry.url, website.url) &&
    passesPatterns(entry.url, website.allowedPatterns, website.skipPatterns) &&
    robots.isAllowed(entry.url)
  );
}

/**
 * Writes in the server's log why reading a website's sitemaps failed (`what`: its sitemap
 * generation, its Refresh Sitemap), the whole error, and answers the line its row shows: the failed
 * job's plain line, as the jobs screen shows it, never the statement, its values, a stack, a path
 * of the server or an address's password. What is expected (no sitemap to read, the database out
 * of reach) is a warning; anything else an error.
 */
export function sitemapFailureLine(what: string, websiteId: number, error: unknown, deps: Pick<PipelineDeps, "log">) {
  const said = `${what} of website ${websiteId} failed`;
  if (error instanceof NoSitemapFound || isDatabaseUnavailable(error)) deps.log.warn(said, error);
  else deps.log.error(said, error);
  return failedJobLine(error);
}
