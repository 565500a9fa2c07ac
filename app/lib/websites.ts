import { DEFAULT_TAGS, SCAN_MODES, URL_STATUSES } from "@contract/values/knowledge";
import type { Website } from "@contract";
import { formatDateTimeUtc } from "./dates";
import { readPageParam, readSearchParam } from "./query-params";

/*
 * Pure rules of the Websites screen (spec sections 2, 5 and 9): what the pattern boxes suggest,
 * how their comma-separated text becomes lists, which rows changed, when to poll.
 */

export const WEBSITES_PAGE_SIZES = [10, 25] as const;
export const DEFAULT_WEBSITES_PAGE_SIZE = 25;
/** The spec's post-action reload delay, and how often a page with pending work asks again. */
export const RELOAD_AFTER_ACTION_MS = 500;
export const POLL_INTERVAL_MS = 2000;
export const SITEMAP_DIFF_TEXT = "Sitemap differences detected";

export const TAG_OPTIONS: readonly string[] = DEFAULT_TAGS;
export const ALLOWED_PATTERN_SUGGESTIONS = [
  "/products/",
  "/services/",
  "/catalog/",
  "/category/",
  "/shop/",
  "/store/",
  "/item/",
] as const;

/**
 * Skip suggestions: calendar, news, blog, contact, and every year from 2000 to `thisYear` (the
 * loader's, in UTC: server and browser must render the same list).
 */
export function skipPatternSuggestions(thisYear: number) {
  const years: string[] = [];
  for (let year = 2000; year <= thisYear; year++) years.push(String(year));
  return ["calendar", "news", "blog", "contact", ...years];
}

/** Comma-separated text ⇒ patterns: trimmed, blanks dropped, duplicates kept once. */
export function parsePatterns(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
}

export const formatPatterns = (patterns: readonly string[]) => patterns.join(", ");

/**
 * Datalist options for a comma-separated box: each suggestion not yet in it, as the whole text
 * the box would hold after picking it (so the browser's own suggestion list can complete the
 * last item while keeping the ones before).
 */
export function suggestionOptions(text: string, suggestions: readonly string[]) {
  const lastComma = text.lastIndexOf(",");
  const done = parsePatterns(lastComma === -1 ? "" : text.slice(0, lastComma));
  return suggestions
    .filter((suggestion) => !done.includes(suggestion))
    .map((suggestion) => ({ value: formatPatterns([...done, suggestion]), label: suggestion }));
}

/** The values of a row the user edits, as the form carries them. */
export interface WebsiteValues {
  url: string;
  site_map: string;
  tags: string[];
  /** Comma-separated, as typed. */
  skip_patterns: string;
  allowed_patterns: string;
}

/**
 * A row of the Websites form: its values, and what the loader gave (posted back as one hidden
 * field) so only new or changed rows are sent and an untouched row is never rewritten.
 */
export interface WebsiteFormRow extends WebsiteValues {
  /** "" for a row not saved yet. */
  id: string;
  loaded: (WebsiteValues & { enabled: boolean }) | null;
}

export const WEBSITE_REQUIRED_FIELDS = ["url", "site_map"] as const;
export const WEBSITE_FIELDS = ["url", "site_map", "tags", "skip_patterns", "allowed_patterns"] as const;
export type WebsiteField = (typeof WEBSITE_FIELDS)[number];

export const blankWebsiteRow = (): WebsiteFormRow => ({
  id: "",
  url: "",
  site_map: "",
  tags: [],
  skip_patterns: "",
  allowed_patterns: "",
  loaded: null,
});

export function websiteFormRow(website: Website): WebsiteFormRow {
  const values: WebsiteValues = {
    url: website.url,
    site_map: website.site_map,
    tags: [...website.tags],
    skip_patterns: formatPatterns(website.skip_patterns),
    allowed_patterns: formatPatterns(website.allowed_patterns),
  };
  return { id: String(website.id), ...values, tags: [...values.tags], loaded: { ...values, enabled: website.enabled } };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);
const sameSet = (a: readonly string[], b: readonly string[]) =>
  sameList([...new Set(a)].sort(), [...new Set(b)].sort());

function fieldDiffers(field: WebsiteField, current: WebsiteValues, loaded: WebsiteValues) {
  switch (field) {
    case "url":
      return current.url.trim() !== loaded.url.trim();
    case "site_map":
      return current.site_map !== loaded.site_map;
    case "tags":
      return !sameSet(current.tags, loaded.tags);
    case "skip_patterns":
    case "allowed_patterns":
      return !sameList(parsePatterns(current[field]), parsePatterns(loaded[field]));
  }
}

/** The fields whose value differs from what was loaded (every filled field of a new row). */
export function changedWebsiteFields(row: WebsiteFormRow): Set<WebsiteField> {
  const loaded = row.loaded ?? { url: "", site_map: "", tags: [], skip_patterns: "", allowed_patterns: "" };
  return new Set(WEBSITE_FIELDS.filter((field) => fieldDiffers(field, row, loaded)));
}

export const isNewWebsiteRow = (row: { id: string }) => row.id === "";

/** A new row nobody has typed into yet: only one of these may exist at a time. */
export const isBlankNewRow = (row: WebsiteFormRow) => isNewWebsiteRow(row) && changedWebsiteFields(row).size === 0;

/** A row the save sends: new, or changed since it was loaded. */
export const websiteRowNeedsSave = (row: WebsiteFormRow) => isNewWebsiteRow(row) || changedWebsiteFields(row).size > 0;

/** '+ Add Website': a blank new row at the top, unless one is already there (then nothing is added). */
export function withBlankRow(rows: WebsiteFormRow[]): { rows: WebsiteFormRow[]; blankIndex: number } {
  const existing = rows.findIndex(isBlankNewRow);
  if (existing !== -1) return { rows, blankIndex: existing };
  return { rows: [blankWebsiteRow(), ...rows], blankIndex: 0 };
}

export const isScanMode = (value: string): value is (typeof SCAN_MODES)[number] =>
  (SCAN_MODES as readonly string[]).includes(value);

/** Tags a row's checkboxes offer: the default ones, then any others it already has. */
export const tagOptionsFor = (row: Pick<WebsiteValues, "tags">, loaded?: Pick<WebsiteValues, "tags"> | null) => [
  ...new Set([...TAG_OPTIONS, ...(loaded?.tags ?? []), ...row.tags]),
];

/** The red dot: only a website the API says has sitemap differences awaiting review. */
export const showsSitemapDiff = (website: Pick<Website, "sitemap_diff"> | undefined) => website?.sitemap_diff === true;

/** URL statuses that mean work is under way (requested or sent). */
export const PROCESSING_STATUSES = [
  "to_be_indexed",
  "sent_for_indexing",
  "to_be_skipped",
  "sent_for_skipping",
  "to_be_deleted",
  "sent_for_deletion",
] as const;

/** Poll while a website's sitemap is being generated or any URL is being processed. */
export function hasPendingWork(websites: readonly Pick<Website, "status">[], statusCounts: Record<string, number>) {
  if (websites.some((website) => website.status === "pending_sitemap_generation")) return true;
  return PROCESSING_STATUSES.some((status) => (statusCounts[status] ?? 0) > 0);
}

/** The status filter's entries: 'All URLs' with the total, then each status in list order with its count. */
export function statusFilterOptions(statusCounts: Record<string, number>, totalCount: number) {
  return [
    { status: null, label: "All URLs", count: totalCount },
    ...URL_STATUSES.map((status) => ({ status, label: status, count: statusCounts[status] ?? 0 })),
  ];
}

/**
 * The websites list's own address parameters (search, page, page size) travel into the drawers it
 * opens as one `list` parameter, whose page and page size are their own, so that the list behind
 * a drawer, and the list a drawer closes to, is the one the operator left.
 */
export const LIST_PARAM = "list";

/** Whether an address is a drawer's below the websites list (not the list's own). */
export const isUnderWebsitesList = (pathname: string) => !/\/websites\/?$/.test(pathname);

/**
 * The websites list's parameters: the address's own on the list, under a drawer the ones the
 * drawer carries in `list` (none: the list's defaults), never the drawer's own page and page size.
 */
export function listSearchOf(search: URLSearchParams, underDrawer: boolean) {
  const carried = search.get(LIST_PARAM);
  if (carried !== null) return new URLSearchParams(carried.slice(0, 1000));
  return underDrawer ? new URLSearchParams() : search;
}

/**
 * The websites list's parameters as a drawer carries them (without "?"), read from the address the
 * list shows now (its own, or the ones its open drawer carries); defaults are left out.
 */
export function listSearchFrom(search: URLSearchParams, underDrawer: boolean) {
  const list = websitesListParams(listSearchOf(search, underDrawer));
  const params = new URLSearchParams();
  if (list.query) params.set("query", list.query);
  if (list.page > 1) params.set("page", String(list.page));
  if (list.page_size !== DEFAULT_WEBSITES_PAGE_SIZE) params.set("page_size", String(list.page_size));
  return params.toString();
}

/** A drawer's address below the websites list, carrying the list's own parameters (`listSearch`, without "?"). */
export function withListSearch(path: string, listSearch: string) {
  if (!listSearch) return path;
  const [pathname, query = ""] = path.split("?");
  const params = new URLSearchParams(query);
  params.set(LIST_PARAM, listSearch);
  return `${pathname}?${params}`;
}

/** Where the status filter leads: the unified URL drawer, scoped to a status or not. */
export const urlsDrawerPath = (status: string | null, listSearch = "") =>
  withListSearch(status ? `urls?status=${encodeURIComponent(status)}` : "urls", listSearch);

/** The page, page size and search of the URL, as the API takes them; anything odd falls back to the defaults. */
export function websitesListParams(search: URLSearchParams) {
  const page = readPageParam(search.get("page"));
  const pageSize = Number(search.get("page_size"));
  const query = readSearchParam(search.get("query"), 200);
  return {
    page,
    page_size: (WEBSITES_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_WEBSITES_PAGE_SIZE,
    query,
  };
}

/** The row menu's actions on a whole website. */
export const MENU_ACTIONS = {
  "index-all": { label: "Index All", status: "to_be_indexed", force: false },
  "force-index": { label: "Force Index", status: "to_be_indexed", force: true },
  "skip-all": { label: "Skip All", status: "to_be_skipped", force: false },
  "delete-urls": { label: "Delete URLs", status: "to_be_deleted", force: false },
  "refresh-sitemap": { label: "Refresh Sitemap", status: null, force: false },
} as const;
export type MenuAction = keyof typeof MENU_ACTIONS;

export type WebsitesIntent =
  | { kind: "save" }
  | { kind: "add-row" }
  | { kind: "discard-row"; index: number }
  | { kind: "menu"; action: MenuAction; websiteId: number; confirmed: boolean }
  | { kind: "unknown" };

/**
 * The pressed button's value: `save`, `add-row`, `discard-row:<index>`, `<menu action>:<website id>`,
 * or `delete-urls-confirmed:<website id>` (the second step of Delete URLs).
 */
export function websitesIntent(value: string): WebsitesIntent {
  if (value === "save" || value === "add-row") return { kind: value };
  const discard = /^discard-row:(\d+)$/.exec(value);
  if (discard) return { kind: "discard-row", index: Number(discard[1]) };
  const menu = /^([a-z-]+?)(-confirmed)?:(\d+)$/.exec(value);
  if (menu && menu[1] in MENU_ACTIONS && (!menu[2] || menu[1] === "delete-urls")) {
    return { kind: "menu", action: menu[1] as MenuAction, websiteId: Number(menu[3]), confirmed: Boolean(menu[2]) };
  }
  return { kind: "unknown" };
}

export const menuIntent = (action: MenuAction, websiteId: number | string, confirmed = false) =>
  `${action}${confirmed ? "-confirmed" : ""}:${websiteId}`;

export const deleteUrlsQuestion = (url: string) =>
  `Delete all URLs of ${url}? Their chunks are removed from the knowledge store.`;

/** "3 new, 1,200 unchanged": the counts that are not zero, in the order given (a row's line stays short). */
function countsOf<Key extends string>(record: Record<Key, number>, keys: readonly Key[]) {
  return keys.filter((key) => record[key] > 0).map((key) => `${record[key].toLocaleString("en-US")} ${key}`);
}

/**
 * What the website's last Refresh Sitemap did, for its row: asked for and waiting for its job, the
 * marks it made for review, or why it could not read the sitemaps.
 */
export function sitemapRefreshLine(record: NonNullable<Website["last_sitemap_refresh"]>): string {
  if (!record.finished_at) return `Sitemap refresh asked for ${formatDateTimeUtc(record.asked_at)}: not read yet`;
  const when = formatDateTimeUtc(record.finished_at);
  if (record.error) return `Sitemap refresh ${when}: ${record.error}`;
  const counts = countsOf(record, ["new", "removed", "changed", "unchanged"] as const);
  return `Sitemap read ${when}: ${counts.length ? counts.join(", ") : "no pages listed"}`;
}

/** What the website's last refresh of its pages did, once any page of it has come out; null before. */
export function pagesRefreshLine(record: NonNullable<Website["last_refresh"]>): string | null {
  const counts = countsOf(record, ["checked", "unchanged", "changed", "gone", "new", "failed"] as const);
  return counts.length ? `Last refresh ${formatDateTimeUtc(record.started_at)}: ${counts.join(", ")}` : null;
}
