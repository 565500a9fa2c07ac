import { REVIEW_STATUSES, URL_COUNT_CAP, URL_ORDER_COLUMNS, URL_STATUSES } from "@contract/values/knowledge";
import { MAX_URL_LENGTH } from "@contract/values/common";
import type { ReviewStatus, UrlsQuery, UrlStatus } from "@contract";
import { readPageParam, readSearchParam } from "./query-params";
import { LIST_PARAM, listSearchFrom } from "./websites";

/** Spec §9: the URL tables' paging and sorting. */
export const WEBSITE_PAGE_SIZES = [1, 10, 25, 50, 100, 500, 1000, 2000] as const;
export const UNIFIED_PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_URL_PAGE_SIZE = 100;
export const EXPORT_ROW_LIMIT = 10_000;
/** The export's answer header: how many URLs of the view the file left out past EXPORT_ROW_LIMIT ("some" when not counted). */
export const EXPORT_LEFT_OUT_HEADER = "X-Urls-Left-Out";

/** The toast of a finished export: the spec's words, and what the file left out. */
export function exportDoneMessage(leftOut: string | null) {
  const done = "Export completed successfully";
  if (!leftOut || leftOut === "0") return done;
  const more = leftOut === "some" ? "more URLs match" : `${Number(leftOut).toLocaleString("en")} more URLs match`;
  return `${done}: the first ${EXPORT_ROW_LIMIT.toLocaleString("en")} rows; ${more}, so narrow the view to export them`;
}
export const RELOAD_DELAY_MS = 500;
export const REFRESH_DAYS_DEBOUNCE_MS = 500;
export const POLL_INTERVAL_MS = 2000;
export const REFRESH_DAYS_MIN = 1;
export const REFRESH_DAYS_MAX = 365;
export const REFRESH_DAYS_ERROR = "Refresh days must be between 1 and 365.";

/**
 * Without JavaScript a refused refresh-days value comes back in the address the refusal redirects
 * to (beside the spec's toast), so its row shows what was typed instead of the stored value.
 */
const REFUSED_DAYS_URL = "refused_days_url";
const REFUSED_DAYS = "refused_days";
// A number field's value; anything longer is not one a person typed.
const REFUSED_DAYS_MAX_LENGTH = 12;

export interface RefusedRefreshDays {
  urlId: number;
  value: string;
}

/** The address without a refused value it may carry: where every answer of the drawer goes back to. */
export function withoutRefusedDays(search: URLSearchParams) {
  const next = new URLSearchParams(search);
  next.delete(REFUSED_DAYS_URL);
  next.delete(REFUSED_DAYS);
  return next;
}

export function withRefusedDays(search: URLSearchParams, refused: RefusedRefreshDays) {
  const next = withoutRefusedDays(search);
  next.set(REFUSED_DAYS_URL, String(refused.urlId));
  next.set(REFUSED_DAYS, refused.value.slice(0, REFUSED_DAYS_MAX_LENGTH));
  return next;
}

export function refusedDaysOf(search: URLSearchParams): RefusedRefreshDays | null {
  const urlId = Number(search.get(REFUSED_DAYS_URL));
  if (!Number.isSafeInteger(urlId) || urlId <= 0) return null;
  // What a number field can hold, nothing else: the address is anyone's to write.
  const value = (search.get(REFUSED_DAYS) ?? "").replace(/[^\d.+-]/g, "").slice(0, REFUSED_DAYS_MAX_LENGTH);
  return { urlId, value };
}

export type OrderColumn = (typeof URL_ORDER_COLUMNS)[number];
export type SortOrder = "asc" | "desc";

/** Everything a URL drawer shows, as read from (and written back to) its address. */
export interface UrlView {
  page: number;
  pageSize: number;
  orderBy: OrderColumn;
  order: SortOrder;
  search: string;
  /** Exactly this address: where Business Insights sends the operator to one page. */
  url: string;
  statuses: UrlStatus[];
  reviews: ReviewStatus[];
  /** The websites list's own parameters, carried so that closing the drawer goes back to that list (~/lib/websites). */
  list: string;
}

/** A list param given as `a,b`, as repeated params, or both; unknown values are dropped. */
function readList<T extends string>(params: URLSearchParams, name: string, allowed: readonly T[]): T[] {
  const values = params
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim());
  return allowed.filter((candidate) => values.includes(candidate));
}

function readInt(value: string | null) {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

export function readUrlView(
  params: URLSearchParams,
  pageSizes: readonly number[] = WEBSITE_PAGE_SIZES,
  defaultPageSize = DEFAULT_URL_PAGE_SIZE,
): UrlView {
  const size = readInt(params.get("page_size"));
  const orderBy = params.get("order_by");
  return {
    page: readPageParam(params.get("page"), 0),
    pageSize: size !== null && pageSizes.includes(size) ? size : defaultPageSize,
    orderBy: (URL_ORDER_COLUMNS as readonly string[]).includes(orderBy ?? "") ? (orderBy as OrderColumn) : "url",
    order: params.get("order") === "desc" ? "desc" : "asc",
    search: readSearchParam(params.get("search"), 500),
    url: readSearchParam(params.get("url"), MAX_URL_LENGTH),
    statuses: readList(params, "status", URL_STATUSES),
    reviews: readList(params, "review", REVIEW_STATUSES),
    list: listSearchFrom(params, true),
  };
}

/** The API's query for a view: statuses and review statuses as its comma lists. */
export function toApiQuery(view: UrlView): UrlsQuery {
  return {
    page: view.page,
    page_size: view.pageSize,
    order_by: view.orderBy,
    order: view.order,
    search: view.search || undefined,
    url: view.url || undefined,
    status: view.statuses.length ? view.statuses.join(",") : undefined,
    sitemap_refresh_review_status: view.reviews.length ? view.reviews.join(",") : undefined,
  };
}

/** The export asks for the same filters and sort, as many rows as it may take, from the start. */
export function toExportQuery(view: UrlView): UrlsQuery {
  return { ...toApiQuery(view), page: 0, page_size: EXPORT_ROW_LIMIT };
}

/** The address params of a view; defaults are left out so links stay short. */
export function viewToParams(view: UrlView, defaultPageSize = DEFAULT_URL_PAGE_SIZE) {
  const params = new URLSearchParams();
  if (view.search) params.set("search", view.search);
  if (view.url) params.set("url", view.url);
  if (view.statuses.length) params.set("status", view.statuses.join(","));
  if (view.reviews.length) params.set("review", view.reviews.join(","));
  if (view.orderBy !== "url" || view.order !== "asc") {
    params.set("order_by", view.orderBy);
    params.set("order", view.order);
  }
  if (view.pageSize !== defaultPageSize) params.set("page_size", String(view.pageSize));
  if (view.page) params.set("page", String(view.page));
  if (view.list) params.set(LIST_PARAM, view.list);
  return params;
}

/** Sorting a new column starts ascending, the same column flips; either way back to the first page. */
export function sortBy(view: UrlView, column: OrderColumn): UrlView {
  const order: SortOrder = view.orderBy === column ? (view.order === "asc" ? "desc" : "asc") : "asc";
  return { ...view, orderBy: column, order, page: 0 };
}

export const withPageSize = (view: UrlView, pageSize: number): UrlView => ({ ...view, pageSize, page: 0 });
export const withPage = (view: UrlView, page: number): UrlView => ({ ...view, page: Math.max(0, page) });

/** Search or filters narrow the list ('Filtered URLs: N'). */
export const isFiltered = (view: UrlView) =>
  Boolean(view.search || view.url || view.statuses.length || view.reviews.length);

/** The knowledge store's row of exactly one page (`store` is its Websites screen), where its status is and it is indexed again. */
export const urlRowPath = (store: string, url: string) => `${store}/urls?${new URLSearchParams({ url })}`;
export const activeFilterCount = (view: UrlView) => view.statuses.length + view.reviews.length;

export function filteredCountText(total: number, capped: boolean) {
  return `Filtered URLs: ${capped ? `${URL_COUNT_CAP}+` : total}`;
}

/** 'Add Links': lines trimmed, empty ones dropped; each with its line number in the box, blank lines counted. */
export function linkLines(text: string) {
  return text
    .split(/\r\n|\r|\n/)
    .map((line, index) => ({ link: line.trim(), line: index + 1 }))
    .filter(({ link }) => link !== "");
}

/** 'Add Links': lines trimmed, empty ones dropped. */
export const parseLinks = (text: string) => linkLines(text).map(({ link }) => link);

/** What '+ Links' says once the links are in: how many were added, and how many the website already had. */
export function linksAddedMessage(added: number, existing: number) {
  const already = existing ? `${existing} already in this website` : "";
  if (added === 0 && existing) return `No links added: ${already}`;
  return `${added} ${added === 1 ? "link" : "links"} added${already ? `, ${already}` : ""}`;
}

/** An integer from 1 to 365, or null. */
export function parseRefreshDays(value: unknown): number | null {
  const text = String(value ?? "").trim();
  if (!/^\d+$/.test(text)) return null;
  const days = Number(text);
  return days >= REFRESH_DAYS_MIN && days <= REFRESH_DAYS_MAX ? days : null;
}

/** A URL waiting for the pipeline: the view polls while one is visible. */
export const isInFlight = (status: string) => status.startsWith("to_be_") || status.startsWith("sent_for_");

/** The bulk actions the drawers offer, as the API's requests. */
export const BULK_ACTIONS = {
  index: { label: "Index", status: "to_be_indexed", force: false },
  force_index: { label: "Force Index", status: "to_be_indexed", force: true },
  skip: { label: "Skip", status: "to_be_skipped", force: false },
  delete: { label: "Delete", status: "to_be_deleted", force: false },
} as const;
export type BulkAction = keyof typeof BULK_ACTIONS;

/** What the drawers' bulk Delete answers before anything is deleted: the question, and the URLs it is about. */
export interface BulkDeleteQuestion {
  intent: "confirm-bulk-delete";
  urlIds: number[];
}
export const BULK_DELETE_CONFIRMED = "confirmed";

/** The question asked before the chosen URLs are deleted, as the row menu's Delete URLs asks it. */
export const bulkDeleteQuestion = (count: number) =>
  `Delete ${count === 1 ? "the selected URL" : `the ${count.toLocaleString("en")} selected URLs`}? Their chunks are removed from the knowledge store.`;
export const isBulkAction = (value: unknown): value is BulkAction =>
  typeof value === "string" && Object.hasOwn(BULK_ACTIONS, value);

export const FONT_SIZES = { min: 10, max: 24, step: 2, start: 14 } as const;

/** The JSON viewer's font size from the address, kept within 10–24 on the step. */
export function readFontSize(value: string | null) {
  const size = readInt(value);
  if (size === null) return FONT_SIZES.start;
  const clamped = Math.min(FONT_SIZES.max, Math.max(FONT_SIZES.min, size));
  return clamped - ((clamped - FONT_SIZES.min) % FONT_SIZES.step);
}

/** The chunks drawer's JSON viewer settings from its address (`font`, `theme`). */
export function viewerSettings(params: URLSearchParams) {
  return {
    font: readFontSize(params.get("font")),
    theme: (params.get("theme") === "light" ? "light" : "dark") as "light" | "dark",
  };
}

/** `urls_export_{site}_{timestamp}.csv`: the site is the website's host, or 'all'. */
export function exportFileName(site: string, now: Date) {
  const safeSite = site.replace(/[^A-Za-z0-9.-]+/g, "_") || "all";
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
  return `urls_export_${safeSite}_${stamp}.csv`;
}

export function siteOf(websiteUrl: string) {
  try {
    return new URL(websiteUrl).host;
  } catch {
    return "site";
  }
}

/**
 * What the URL pager shows: the page (from 1) of how many, and whether there is a next. When the
 * API stopped counting matches at its cap (`capped`), the pages counted are the least there are:
 * the page asked for counts, and a page that came back full may have a next.
 */
export function pagerState({
  page,
  pageSize,
  totalPages,
  capped,
  rowsShown,
}: {
  page: number;
  pageSize: number;
  totalPages: number;
  capped: boolean;
  rowsShown: number;
}) {
  const knownPages = Math.max(totalPages, 1, capped ? page + 1 : 1);
  return {
    shownPage: Math.min(page + 1, knownPages),
    knownPages,
    hasNext: page + 1 < totalPages || (capped && rowsShown === pageSize),
  };
}
