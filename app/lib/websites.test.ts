import { describe, expect, it } from "vitest";
import type { Website } from "@contract";
import { readUrlView, viewToParams } from "./urls";
import {
  ALLOWED_PATTERN_SUGGESTIONS,
  blankWebsiteRow,
  changedWebsiteFields,
  hasPendingWork,
  isBlankNewRow,
  menuIntent,
  parsePatterns,
  showsSitemapDiff,
  skipPatternSuggestions,
  statusFilterOptions,
  suggestionOptions,
  tagOptionsFor,
  urlsDrawerPath,
  websiteFormRow,
  websiteRowNeedsSave,
  websitesIntent,
  websitesListParams,
  withBlankRow,
  isUnderWebsitesList,
  listSearchFrom,
  pagesRefreshLine,
  sitemapRefreshLine,
  withListSearch,
} from "./websites";

const website = (overrides: Partial<Website> = {}): Website => ({
  id: 7,
  app_id: 1,
  url: "https://www.northfield.edu/",
  urls_count: 3,
  site_map: "full_website",
  status: "sitemap_generated",
  enabled: true,
  tags: ["Production"],
  skip_patterns: ["blog", "2019"],
  allowed_patterns: [],
  user: { name: "Ada Admin" },
  sitemap_diff: false,
  updated_at: "2026-01-01T00:00:00.000Z",
  last_error: null,
  last_refresh: null,
  last_sitemap_refresh: null,
  ...overrides,
});

describe("suggestions", () => {
  it("offers calendar, news, blog, contact and every year from 2000 to the current one for skip patterns", () => {
    const list = skipPatternSuggestions(2026);
    expect(list.slice(0, 4)).toEqual(["calendar", "news", "blog", "contact"]);
    expect(list.slice(4)).toHaveLength(27);
    expect(list[4]).toBe("2000");
    expect(list.at(-1)).toBe("2026");
    expect(skipPatternSuggestions(2031).at(-1)).toBe("2031");
  });

  it("offers the spec's allowed patterns", () => {
    expect(ALLOWED_PATTERN_SUGGESTIONS).toEqual([
      "/products/",
      "/services/",
      "/catalog/",
      "/category/",
      "/shop/",
      "/store/",
      "/item/",
    ]);
  });

  it("completes the item being typed and keeps those before it; chosen ones are not offered again", () => {
    expect(suggestionOptions("", ["news", "blog"])).toEqual([
      { value: "news", label: "news" },
      { value: "blog", label: "blog" },
    ]);
    expect(suggestionOptions("blog, ne", ["news", "blog", "contact"])).toEqual([
      { value: "blog, news", label: "news" },
      { value: "blog, contact", label: "contact" },
    ]);
  });
});

describe("parsePatterns", () => {
  it("splits on commas, trims, drops blanks and repeats", () => {
    expect(parsePatterns(" blog, ,news ,blog,, /shop/ ")).toEqual(["blog", "news", "/shop/"]);
    expect(parsePatterns("")).toEqual([]);
    expect(parsePatterns(" , ")).toEqual([]);
  });
});

describe("row diffing", () => {
  it("an untouched loaded row has no changes and is not sent", () => {
    const row = websiteFormRow(website());
    expect(row).toMatchObject({
      id: "7",
      url: "https://www.northfield.edu/",
      site_map: "full_website",
      tags: ["Production"],
      skip_patterns: "blog, 2019",
    });
    expect(changedWebsiteFields(row).size).toBe(0);
    expect(websiteRowNeedsSave(row)).toBe(false);
  });

  it("names each changed field; tag order and pattern spacing are not changes", () => {
    const row = websiteFormRow(website({ tags: ["Production", "Staged"] }));
    expect(changedWebsiteFields({ ...row, tags: ["Staged", "Production"], skip_patterns: "blog,2019 " }).size).toBe(0);
    const edited = {
      ...row,
      url: "https://northfield.edu/",
      site_map: "few_urls",
      tags: ["Staged"],
      skip_patterns: "blog",
      allowed_patterns: "/shop/",
    };
    expect([...changedWebsiteFields(edited)].sort()).toEqual([
      "allowed_patterns",
      "site_map",
      "skip_patterns",
      "tags",
      "url",
    ]);
    expect(websiteRowNeedsSave(edited)).toBe(true);
  });

  it("a new row is always sent; it counts as blank until something is typed", () => {
    const blank = blankWebsiteRow();
    expect(websiteRowNeedsSave(blank)).toBe(true);
    expect(isBlankNewRow(blank)).toBe(true);
    expect(isBlankNewRow({ ...blank, tags: ["Staged"] })).toBe(false);
    expect([...changedWebsiteFields({ ...blank, url: "https://a.example/" })]).toEqual(["url"]);
  });

  it("adds at most one blank new row", () => {
    const loaded = [websiteFormRow(website())];
    const once = withBlankRow(loaded);
    expect(once.rows).toHaveLength(2);
    expect(once.blankIndex).toBe(0);
    const twice = withBlankRow(once.rows);
    expect(twice.rows).toBe(once.rows);
    const typed = [{ ...once.rows[0], url: "https://b.example/" }, ...once.rows.slice(1)];
    expect(withBlankRow(typed).rows).toHaveLength(3);
  });

  it("offers the default tags plus any other tag the row has", () => {
    expect(tagOptionsFor({ tags: ["Legacy"] }, { tags: ["Old"] })).toEqual([
      "Development",
      "Staged",
      "Production",
      "Old",
      "Legacy",
    ]);
  });
});

describe("the red dot", () => {
  it("shows only for a website with sitemap differences", () => {
    expect(showsSitemapDiff(website({ sitemap_diff: true }))).toBe(true);
    expect(showsSitemapDiff(website({ sitemap_diff: false }))).toBe(false);
    expect(showsSitemapDiff(undefined)).toBe(false);
  });
});

describe("polling", () => {
  it("runs while a sitemap is generated or URLs are being processed, and stops when nothing is pending", () => {
    expect(hasPendingWork([website({ status: "pending_sitemap_generation" })], {})).toBe(true);
    expect(hasPendingWork([website()], { indexed: 4, to_be_indexed: 1 })).toBe(true);
    expect(hasPendingWork([website()], { sent_for_deletion: 2 })).toBe(true);
    expect(hasPendingWork([website()], { indexed: 4, pending_review: 3, failed_to_index: 1, to_be_skipped: 0 })).toBe(
      false,
    );
    expect(hasPendingWork([], {})).toBe(false);
  });
});

describe("status filter", () => {
  it("lists 'All URLs' with the total, then every status in list order with its count", () => {
    const options = statusFilterOptions({ indexed: 3, pending_review: 2 }, 5);
    expect(options[0]).toEqual({ status: null, label: "All URLs", count: 5 });
    expect(options).toHaveLength(16);
    expect(options[1]).toEqual({ status: "pending_review", label: "pending_review", count: 2 });
    expect(options.find((o) => o.status === "indexed")?.count).toBe(3);
    expect(options.find((o) => o.status === "deleted")?.count).toBe(0);
  });

  it("leads to the unified URL drawer", () => {
    expect(urlsDrawerPath(null)).toBe("urls");
    expect(urlsDrawerPath("to_be_indexed")).toBe("urls?status=to_be_indexed");
  });
});

describe("list params", () => {
  it("reads page, page size (10 or 25) and query, falling back to page 1 and size 25", () => {
    expect(websitesListParams(new URLSearchParams(""))).toEqual({ page: 1, page_size: 25, query: "" });
    expect(websitesListParams(new URLSearchParams("page=3&page_size=10&query= north "))).toEqual({
      page: 3,
      page_size: 10,
      query: "north",
    });
    expect(websitesListParams(new URLSearchParams("page=0&page_size=50"))).toEqual({
      page: 1,
      page_size: 25,
      query: "",
    });
    expect(websitesListParams(new URLSearchParams("page=x&page_size=abc"))).toEqual({
      page: 1,
      page_size: 25,
      query: "",
    });
  });
});

describe("intents", () => {
  it("reads save, add and discard, the menu actions and the confirmed delete", () => {
    expect(websitesIntent("save")).toEqual({ kind: "save" });
    expect(websitesIntent("add-row")).toEqual({ kind: "add-row" });
    expect(websitesIntent("discard-row:2")).toEqual({ kind: "discard-row", index: 2 });
    expect(websitesIntent(menuIntent("index-all", 5))).toEqual({
      kind: "menu",
      action: "index-all",
      websiteId: 5,
      confirmed: false,
    });
    expect(websitesIntent(menuIntent("force-index", 5))).toMatchObject({ action: "force-index" });
    expect(websitesIntent(menuIntent("delete-urls", 9, true))).toEqual({
      kind: "menu",
      action: "delete-urls",
      websiteId: 9,
      confirmed: true,
    });
    expect(websitesIntent("index-all-confirmed:5")).toEqual({ kind: "unknown" });
    expect(websitesIntent("drop-table:1")).toEqual({ kind: "unknown" });
  });
});

describe("the websites list's parameters in its drawers", () => {
  const list = "query=3299&page=2&page_size=10";

  it("go into a drawer's address as one `list` parameter beside the drawer's own", () => {
    expect(withListSearch("7", list)).toBe(`7?list=${encodeURIComponent(list)}`);
    expect(urlsDrawerPath("indexed", list)).toBe(`urls?status=indexed&list=${encodeURIComponent(list)}`);
    expect(urlsDrawerPath(null, "")).toBe("urls");
  });

  it("are read from the list's own address, or from what a drawer carries, never the drawer's page", () => {
    const onList = new URLSearchParams(list);
    expect(listSearchFrom(onList, false)).toBe(list);
    const inDrawer = new URLSearchParams({ page: "5", page_size: "500", list });
    expect(listSearchFrom(inDrawer, true)).toBe(list);
    expect(listSearchFrom(new URLSearchParams({ page: "5", page_size: "500" }), true)).toBe("");
    expect(isUnderWebsitesList("/northfield/agent/admissions/knowledge-store/websites")).toBe(false);
    expect(isUnderWebsitesList("/northfield/agent/admissions/knowledge-store/websites/7")).toBe(true);
    expect(isUnderWebsitesList("/northfield/agent/admissions/knowledge-store/websites/urls")).toBe(true);
  });

  it("travel with the URL drawers' views, so their links and forms keep them", () => {
    const view = readUrlView(new URLSearchParams({ page: "3", list }));
    expect(view.list).toBe(list);
    expect(viewToParams(view).get("list")).toBe(list);
    expect(readUrlView(new URLSearchParams({ page: "3" })).list).toBe("");
  });
});

describe("the last Refresh Sitemap on its row", () => {
  const asked = {
    asked_at: "2026-12-01T09:00:00.000Z",
    finished_at: null,
    new: 0,
    removed: 0,
    changed: 0,
    unchanged: 0,
    error: null,
  };

  it("says it was asked for until its sitemaps are read", () => {
    expect(sitemapRefreshLine(asked)).toBe("Sitemap refresh asked for 12/01/2026 | 09:00 UTC: not read yet");
  });

  it("counts the marks it made for review, and the pages it found unchanged", () => {
    const read = { ...asked, finished_at: "2026-12-01T09:01:00.000Z", new: 3, removed: 1, unchanged: 1200 };
    expect(sitemapRefreshLine(read)).toBe("Sitemap read 12/01/2026 | 09:01 UTC: 3 new, 1 removed, 1,200 unchanged");
    expect(sitemapRefreshLine({ ...asked, finished_at: "2026-12-01T09:01:00.000Z" })).toBe(
      "Sitemap read 12/01/2026 | 09:01 UTC: no pages listed",
    );
  });

  it("says why it read nothing", () => {
    const failed = { ...asked, finished_at: "2026-12-01T09:01:00.000Z", error: "No sitemap found" };
    expect(sitemapRefreshLine(failed)).toBe("Sitemap refresh 12/01/2026 | 09:01 UTC: No sitemap found");
  });
});

describe("pagesRefreshLine", () => {
  const started = {
    started_at: "2026-12-01T09:00:00.000Z",
    checked: 0,
    unchanged: 0,
    changed: 0,
    gone: 0,
    new: 0,
    failed: 0,
  };

  it("counts what came out of the pages, leaving out what none did", () => {
    expect(pagesRefreshLine({ ...started, new: 6 })).toBe("Last refresh 12/01/2026 | 09:00 UTC: 6 new");
    expect(pagesRefreshLine({ ...started, checked: 5000, unchanged: 4950, changed: 48, gone: 2, failed: 1 })).toBe(
      "Last refresh 12/01/2026 | 09:00 UTC: 5,000 checked, 4,950 unchanged, 48 changed, 2 gone, 1 failed",
    );
  });

  it("says nothing until a page has come out", () => {
    expect(pagesRefreshLine(started)).toBeNull();
  });
});
