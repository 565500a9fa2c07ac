import { domainToASCII } from "node:url";
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { UrlRow, UrlsQuery, Website } from "@contract";
import { DEFAULT_REFRESH_DAYS, URL_COUNT_CAP, UrlsQuery as UrlsQuerySchema } from "@contract";
import type { Database } from "../db/client";
import { preparedPerDatabase } from "../db/prepared";
import type { ApiDeps } from "../deps";
import { appUsers, urlStatusCounts, urls, users, websites } from "../db/schema";
import { membershipOf, nameInClient } from "../users/member-name";
import type { z } from "zod";
import { containing } from "../db/like";

type WebsiteRecord = typeof websites.$inferSelect;
type ParsedUrlsQuery = z.output<typeof UrlsQuerySchema>;

/** A website's settings as people set them, in its row's columns (given URLs only when given). */
export function websiteColumns(input: {
  url: string;
  site_map: string;
  enabled: boolean;
  tags: string[];
  skip_patterns: string[];
  allowed_patterns: string[];
  urls?: string[];
}) {
  return {
    url: input.url,
    siteMap: input.site_map,
    enabled: input.enabled,
    tags: input.tags,
    skipPatterns: input.skip_patterns,
    allowedPatterns: input.allowed_patterns,
    ...(input.urls ? { seedUrls: input.urls } : {}),
  };
}

/**
 * Whether new settings take in other pages than a website's row says (its address, scan mode,
 * patterns or given URLs changed): it is then discovered again.
 */
export const takesInOtherPages = (current: WebsiteRecord, next: ReturnType<typeof websiteColumns>) =>
  current.url !== next.url ||
  current.siteMap !== next.siteMap ||
  JSON.stringify(current.skipPatterns) !== JSON.stringify(next.skipPatterns) ||
  JSON.stringify(current.allowedPatterns) !== JSON.stringify(next.allowedPatterns) ||
  (next.seedUrls !== undefined && JSON.stringify(current.seedUrls) !== JSON.stringify(next.seedUrls));

/** A time kept as text, as ISO UTC; records written before they were kept so held their session's offset. */
const isoInstant = (text: string) => {
  const time = Date.parse(text);
  return Number.isFinite(time) ? new Date(time).toISOString() : text;
};

export function toWebsite(row: WebsiteRecord, addedBy: string | null): Website {
  return {
    id: row.id,
    app_id: row.appId,
    url: row.url,
    urls_count: row.urlsCount,
    site_map: row.siteMap as Website["site_map"],
    status: row.status,
    enabled: row.enabled,
    tags: row.tags,
    skip_patterns: row.skipPatterns,
    allowed_patterns: row.allowedPatterns,
    user: addedBy === null ? null : { name: addedBy },
    sitemap_diff: row.sitemapDiff,
    updated_at: row.updatedAt.toISOString(),
    last_error: row.lastError,
    last_refresh: row.lastRefresh ? { ...row.lastRefresh, started_at: isoInstant(row.lastRefresh.started_at) } : null,
    last_sitemap_refresh: row.lastSitemapRefresh ?? null,
  };
}

const COUNT_CAP = URL_COUNT_CAP;

type UrlRecord = typeof urls.$inferSelect;

export function toUrlRow(row: UrlRecord, websiteUrl: string): UrlRow {
  return {
    id: row.id,
    url: row.url,
    title: row.title,
    status: row.status as UrlRow["status"],
    sitemap_refresh_review_status: row.sitemapRefreshReviewStatus as UrlRow["sitemap_refresh_review_status"],
    refresh_days: row.refreshDays,
    metadata: row.metadata,
    indexed_at: row.indexedAt?.toISOString() ?? null,
    checked_at: row.checkedAt?.toISOString() ?? null,
    changed_at: row.changedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    website_id: row.websiteId,
    website_url: websiteUrl,
    source_id: row.sourceId,
  };
}

/** A page of a client's websites (all of them, or those whose address holds `pattern`), with who added each. */
const websitesQuery = (db: Database, where: SQL | undefined) => ({
  total: db.select({ total: count() }).from(websites).where(where),
  rows: db
    .select({ website: websites, addedBy: nameInClient })
    .from(websites)
    .leftJoin(users, eq(users.id, websites.addedBy))
    .leftJoin(appUsers, membershipOf(websites.appId, websites.addedBy))
    .where(where)
    .orderBy(asc(websites.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset")),
});
/** The Websites page without a search, as it opens: prepared. */
const allWebsitesQuery = preparedPerDatabase((db) => {
  const { total, rows } = websitesQuery(db, eq(websites.appId, sql.placeholder("appId")));
  return { total: total.prepare("count_websites"), rows: rows.prepare("list_websites") };
});

/** The client's websites of `ids`, in that order, with who added each: what a save answers, however many the client has. */
export async function websitesByIds(appId: number, ids: number[], deps: Pick<ApiDeps, "db">) {
  if (!ids.length) return [];
  const rows = await deps.db
    .select({ website: websites, addedBy: nameInClient })
    .from(websites)
    .leftJoin(users, eq(users.id, websites.addedBy))
    .leftJoin(appUsers, membershipOf(websites.appId, websites.addedBy))
    .where(and(eq(websites.appId, appId), inArray(websites.id, ids)));
  const byId = new Map(rows.map((r) => [r.website.id, toWebsite(r.website, r.addedBy)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function listWebsites(
  appId: number,
  query: { page: number; page_size: number; query?: string },
  deps: Pick<ApiDeps, "db">,
) {
  const page = { appId, limit: query.page_size, offset: (query.page - 1) * query.page_size };
  const read = query.query
    ? websitesQuery(deps.db, and(eq(websites.appId, appId), ilike(websites.url, containing(query.query))))
    : allWebsitesQuery(deps.db);
  const [{ total }] = await read.total.execute(page);
  const rows = await read.rows.execute(page);
  return {
    websites: rows.map((r) => toWebsite(r.website, r.addedBy)),
    total_count: Number(total),
    total_pages: Math.max(1, Math.ceil(Number(total) / query.page_size)),
    page_size: query.page_size,
  };
}

export async function getWebsite(appId: number, websiteId: number, deps: Pick<ApiDeps, "db">) {
  const [row] = await deps.db
    .select()
    .from(websites)
    .where(and(eq(websites.appId, appId), eq(websites.id, websiteId)));
  return row ?? null;
}

const ORDER_COLUMNS = {
  url: urls.url,
  status: urls.status,
  title: urls.title,
  refresh_days: urls.refreshDays,
  indexed_at: urls.indexedAt,
  created_at: urls.createdAt,
  updated_at: urls.updatedAt,
} as const;

/**
 * Addresses holding the words searched for, as typed or as the address stores them: addresses
 * keep letters beyond ASCII percent-encoded (`admisi%C3%B3n`), and people type `admisión`.
 */
function addressContains(search: string) {
  const typed = search.normalize("NFC");
  let encoded = typed;
  try {
    encoded = encodeURI(typed);
  } catch {
    // A lone surrogate cannot be encoded; the input guard refuses those before this is reached.
  }
  const spellings = [...new Set([typed, encoded, punycodeHostOf(typed) ?? typed])];
  if (spellings.length === 1) return ilike(urls.url, containing(typed));
  return or(...spellings.map((spelling) => ilike(urls.url, containing(spelling))))!;
}

/**
 * A search that starts with a host of letters beyond ASCII, as the address stores it, in punycode
 * (`bücher.example/kat` ⇒ `xn--bcher-kva.example/kat`); null for any other search.
 */
function punycodeHostOf(typed: string) {
  const slash = typed.indexOf("/");
  const host = slash === -1 ? typed : typed.slice(0, slash);
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(host)) return null;
  const ascii = domainToASCII(host);
  if (!ascii) return null;
  try {
    return ascii + encodeURI(slash === -1 ? "" : typed.slice(slash));
  } catch {
    return null;
  }
}

/** Every filter but the status one: the status counts of the dropdown are counted under it. */
function scopeConditions(appId: number, websiteId: number | null, query: ParsedUrlsQuery): SQL[] {
  const conditions: SQL[] = [eq(urls.appId, appId)];
  if (websiteId !== null) conditions.push(eq(urls.websiteId, websiteId));
  if (query.sitemap_refresh_review_status?.length)
    conditions.push(inArray(urls.sitemapRefreshReviewStatus, query.sitemap_refresh_review_status));
  // The address only: a trigram index keeps it fast at a million URLs (titles have none).
  if (query.search) conditions.push(addressContains(query.search));
  if (query.url) conditions.push(eq(urls.url, query.url));
  return conditions;
}

/** Counts by status of one website or the whole client, from the trigger-kept counter table. */
/** The status counts of one website, or of all a client's websites: read by the Websites page each time it shows. */
const countsQuery = (db: Database, scope: SQL) =>
  db
    .select({ status: urlStatusCounts.status, n: sql<number>`sum(${urlStatusCounts.n})::int` })
    .from(urlStatusCounts)
    .where(scope)
    .groupBy(urlStatusCounts.status);
const websiteCountsQuery = preparedPerDatabase((db) =>
  countsQuery(db, eq(urlStatusCounts.websiteId, sql.placeholder("websiteId"))).prepare("website_status_counts"),
);
const clientCountsQuery = preparedPerDatabase((db) =>
  countsQuery(
    db,
    inArray(
      urlStatusCounts.websiteId,
      db
        .select({ id: websites.id })
        .from(websites)
        .where(eq(websites.appId, sql.placeholder("appId"))),
    ),
  ).prepare("client_status_counts"),
);

async function countsFromCounter(appId: number, websiteId: number | null, deps: Pick<ApiDeps, "db">) {
  const rows =
    websiteId !== null
      ? await websiteCountsQuery(deps.db).execute({ websiteId })
      : await clientCountsQuery(deps.db).execute({ appId });
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
}

/**
 * A page of URLs of one website (or of the whole client) with the spec's filters, search and sort,
 * done by the database. Also answers the counts by status under the same search and review filter.
 */
export async function listUrls(
  appId: number,
  websiteId: number | null,
  query: ParsedUrlsQuery,
  deps: Pick<ApiDeps, "db">,
) {
  const scope = scopeConditions(appId, websiteId, query);
  const where = and(...scope, query.status?.length ? inArray(urls.status, query.status) : undefined);
  const column = ORDER_COLUMNS[query.order_by];
  const direction = query.order === "desc" ? desc : asc;
  // Without a search or review filter the counts come from the counter table; with one, a single
  // grouped count over the (index-narrowed) matches gives both the status counts and the total.
  // Counting every match of a common search term costs a scan of all of them, so narrowed counts
  // stop at COUNT_CAP matches (an operator narrows such a search rather than pages through it) and
  // say so with `total_is_capped`.
  const narrowed = Boolean(query.search || query.sitemap_refresh_review_status?.length);
  const countsQuery = narrowed
    ? (async () => {
        const matches = deps.db
          .select({ status: urls.status })
          .from(urls)
          .where(and(...scope))
          .limit(COUNT_CAP + 1)
          .as("matches");
        const rows = await deps.db.select({ status: matches.status, n: count() }).from(matches).groupBy(matches.status);
        return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
      })()
    : countsFromCounter(appId, websiteId, deps);
  // Counts first: they decide how the page is best read.
  const statusCountsByStatus = await countsQuery;
  const totalCount = Object.entries(statusCountsByStatus)
    .filter(([status]) => !query.status?.length || (query.status as string[]).includes(status))
    .reduce((sum, [, n]) => sum + n, 0);
  const capped = narrowed && Object.values(statusCountsByStatus).reduce((a, b) => a + b, 0) > COUNT_CAP;
  // With few matches of a search, walking an index in sort order past rows that fail the filter
  // can read the whole website; sorting by an expression makes the planner fetch the (few)
  // matches through the trigram index and sort them instead. Nothing to show: no query at all.
  const fewMatches = narrowed && !capped;
  // coalesce(x, x) is x, but no index matches it.
  const sortKey = fewMatches ? sql`coalesce(${column}, ${column})` : column;
  const rows =
    totalCount === 0 || (query.page * query.page_size >= totalCount && !capped)
      ? []
      : await deps.db
          .select({ url: urls, websiteUrl: websites.url })
          .from(urls)
          .innerJoin(websites, eq(websites.id, urls.websiteId))
          .where(where)
          .orderBy(direction(sortKey), direction(urls.id))
          .limit(query.page_size)
          .offset(query.page * query.page_size);
  return {
    data: rows.map((r) => toUrlRow(r.url, r.websiteUrl)),
    count: rows.length,
    total_count: totalCount,
    total: totalCount,
    current_page: query.page,
    total_pages: Math.max(1, Math.ceil(totalCount / query.page_size)),
    default_refresh_day: DEFAULT_REFRESH_DAYS,
    status_counts: statusCountsByStatus,
    total_is_capped: capped,
  };
}

export async function statusCounts(appId: number, deps: Pick<ApiDeps, "db">) {
  const status_counts = await countsFromCounter(appId, null, deps);
  return { status_counts, total_count: Object.values(status_counts).reduce((a, b) => a + b, 0) };
}

export type { UrlsQuery };
