import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  exportFileName,
  filteredCountText,
  isFiltered,
  isInFlight,
  linkLines,
  pagerState,
  exportDoneMessage,
  linksAddedMessage,
  parseLinks,
  parseRefreshDays,
  readFontSize,
  readUrlView,
  sortBy,
  toApiQuery,
  toExportQuery,
  UNIFIED_PAGE_SIZES,
  viewerSettings,
  viewToParams,
  withPage,
  withPageSize,
  refusedDaysOf,
  withoutRefusedDays,
  withRefusedDays,
  urlRowPath,
} from "./urls";

const view = (search = "") => readUrlView(new URLSearchParams(search));

describe("one page's row", () => {
  it("is asked for by its whole address, which a search for a home page is only part of every address of", () => {
    const path = urlRowPath("/northfield/agent/admissions/knowledge-store/websites", "http://host/?a=1&b=2");
    expect(path).toBe(
      "/northfield/agent/admissions/knowledge-store/websites/urls?url=http%3A%2F%2Fhost%2F%3Fa%3D1%26b%3D2",
    );
    const v = view(path.split("?")[1]);
    expect([v.url, v.search]).toEqual(["http://host/?a=1&b=2", ""]);
    expect(toApiQuery(v)).toMatchObject({ url: "http://host/?a=1&b=2", search: undefined });
    expect(viewToParams(v).get("url")).toBe("http://host/?a=1&b=2");
    expect(isFiltered(v)).toBe(true);
  });
});

describe("readUrlView", () => {
  it("defaults to page 0, 100 rows, url ascending, no filters", () => {
    expect(view()).toEqual({
      page: 0,
      pageSize: 100,
      orderBy: "url",
      order: "asc",
      search: "",
      url: "",
      statuses: [],
      reviews: [],
      list: "",
    });
  });

  it("reads comma lists and repeated params alike, dropping unknown values", () => {
    const v = view("status=indexed,bogus&status=failed_to_index&review=new&review=changed,nope&search=+nursing+");
    expect(v.statuses).toEqual(["indexed", "failed_to_index"]);
    expect(v.reviews).toEqual(["new", "changed"]);
    expect(v.search).toBe("nursing");
  });

  it("accepts only the drawer's page sizes and known sort columns", () => {
    expect(view("page_size=500&page=3&order_by=status&order=desc")).toMatchObject({
      pageSize: 500,
      page: 3,
      orderBy: "status",
      order: "desc",
    });
    expect(view("page_size=7&page=-1&order_by=drop table&order=sideways")).toMatchObject({
      pageSize: 100,
      page: 0,
      orderBy: "url",
      order: "asc",
    });
    expect(readUrlView(new URLSearchParams("page_size=1"), UNIFIED_PAGE_SIZES).pageSize).toBe(100);
    expect(readUrlView(new URLSearchParams("page_size=200"), UNIFIED_PAGE_SIZES).pageSize).toBe(200);
  });
});

describe("toApiQuery", () => {
  it("maps the view to the API's query with comma lists", () => {
    expect(
      toApiQuery(
        view("status=indexed,failed_to_index&review=new&search=x&page=2&page_size=10&order_by=status&order=desc"),
      ),
    ).toEqual({
      page: 2,
      page_size: 10,
      order_by: "status",
      order: "desc",
      search: "x",
      status: "indexed,failed_to_index",
      sitemap_refresh_review_status: "new",
    });
  });

  it("leaves out empty filters", () => {
    expect(toApiQuery(view())).toEqual({
      page: 0,
      page_size: 100,
      order_by: "url",
      order: "asc",
      search: undefined,
      url: undefined,
      status: undefined,
      sitemap_refresh_review_status: undefined,
    });
  });

  it("exports up to 10000 rows from the first page with the same filters", () => {
    expect(toExportQuery(view("status=indexed&page=4&page_size=10"))).toMatchObject({
      page: 0,
      page_size: 10000,
      status: "indexed",
    });
  });
});

describe("viewToParams", () => {
  it("round-trips and leaves defaults out", () => {
    expect(viewToParams(view()).toString()).toBe("");
    const v = view("status=indexed&review=new&search=a b&order_by=status&order=desc&page_size=25&page=1");
    expect(readUrlView(viewToParams(v))).toEqual(v);
  });
});

describe("sort and paging rules", () => {
  it("starts a new column ascending and flips the same one, back to page 0", () => {
    const onPage = withPage(view(), 3);
    expect(sortBy(onPage, "status")).toMatchObject({ orderBy: "status", order: "asc", page: 0 });
    expect(sortBy(sortBy(onPage, "status"), "status")).toMatchObject({ orderBy: "status", order: "desc", page: 0 });
    expect(sortBy(view("order_by=url&order=desc"), "status").order).toBe("asc");
  });

  it("resets to page 0 on a new page size", () => {
    expect(withPageSize(withPage(view(), 5), 25)).toMatchObject({ page: 0, pageSize: 25 });
  });
});

describe("filters", () => {
  it("counts active filters and says when the list is narrowed", () => {
    expect(activeFilterCount(view("status=indexed,skipped&review=new"))).toBe(3);
    expect(isFiltered(view())).toBe(false);
    expect(isFiltered(view("search=x"))).toBe(true);
    expect(filteredCountText(12, false)).toBe("Filtered URLs: 12");
    expect(filteredCountText(2001, true)).toBe("Filtered URLs: 2000+");
  });
});

describe("parseLinks ('Add Links')", () => {
  it("trims lines and drops empty ones", () => {
    expect(parseLinks("  https://a.example/1 \r\n\n   \nhttps://a.example/2\n")).toEqual([
      "https://a.example/1",
      "https://a.example/2",
    ]);
    expect(parseLinks(" \n \n")).toEqual([]);
  });

  it("keeps each link's line in the box, blank lines counted", () => {
    expect(linkLines("https://a.example/1\r\n\r\n  \n https://a.example/2 \nx")).toEqual([
      { link: "https://a.example/1", line: 1 },
      { link: "https://a.example/2", line: 4 },
      { link: "x", line: 5 },
    ]);
  });

  it("says how many links were added and how many the website already had", () => {
    expect(linksAddedMessage(1, 0)).toBe("1 link added");
    expect(linksAddedMessage(3, 2)).toBe("3 links added, 2 already in this website");
    expect(linksAddedMessage(0, 1)).toBe("No links added: 1 already in this website");
  });
});

describe("parseRefreshDays", () => {
  it("accepts integers from 1 to 365 only", () => {
    expect(parseRefreshDays("1")).toBe(1);
    expect(parseRefreshDays(" 365 ")).toBe(365);
    for (const bad of ["0", "366", "1.5", "-3", "", "abc", null]) expect(parseRefreshDays(bad)).toBeNull();
  });
});

describe("a refused refresh-days value in the address", () => {
  it("goes in beside the view's own parameters, comes out as typed, and leaves again", () => {
    const view = new URLSearchParams("status=indexed&page=2");
    const refused = withRefusedDays(view, { urlId: 41, value: "400" });
    expect(refusedDaysOf(refused)).toEqual({ urlId: 41, value: "400" });
    expect(withoutRefusedDays(refused).toString()).toBe("status=indexed&page=2");
    expect(refusedDaysOf(view)).toBeNull();
  });

  it("keeps at most a number's length, and no row that is not one", () => {
    expect(refusedDaysOf(withRefusedDays(new URLSearchParams(), { urlId: 7, value: "9".repeat(500) }))?.value).toBe(
      "9".repeat(12),
    );
    expect(refusedDaysOf(new URLSearchParams("refused_days_url=abc&refused_days=3"))).toBeNull();
    expect(refusedDaysOf(new URLSearchParams("refused_days_url=4&refused_days=4%000<b>"))?.value).toBe("40");
    expect(refusedDaysOf(new URLSearchParams("refused_days_url=-2&refused_days=3"))).toBeNull();
  });
});

describe("small helpers", () => {
  it("polls for to_be_* and sent_for_* statuses", () => {
    expect(isInFlight("to_be_indexed")).toBe(true);
    expect(isInFlight("sent_for_deletion")).toBe(true);
    expect(isInFlight("indexed")).toBe(false);
  });

  it("keeps the font size within 10–24 on its step", () => {
    expect(readFontSize(null)).toBe(14);
    expect(readFontSize("30")).toBe(24);
    expect(readFontSize("2")).toBe(10);
    expect(readFontSize("15")).toBe(14);
    expect(viewerSettings(new URLSearchParams("font=18&theme=light"))).toEqual({ font: 18, theme: "light" });
    expect(viewerSettings(new URLSearchParams("theme=neon"))).toEqual({ font: 14, theme: "dark" });
  });

  it("names the export file after the site and the time", () => {
    expect(exportFileName("www.northfield.edu", new Date("2026-03-04T05:06:07.890Z"))).toBe(
      "urls_export_www.northfield.edu_20260304T050607Z.csv",
    );
    expect(exportFileName("127.0.0.1:4800", new Date("2026-03-04T05:06:07Z"))).toBe(
      "urls_export_127.0.0.1_4800_20260304T050607Z.csv",
    );
  });
});

describe("the URL pager", () => {
  it("counts pages as the API does", () => {
    expect(pagerState({ page: 0, pageSize: 25, totalPages: 3, capped: false, rowsShown: 25 })).toEqual({
      shownPage: 1,
      knownPages: 3,
      hasNext: true,
    });
    expect(pagerState({ page: 2, pageSize: 25, totalPages: 3, capped: false, rowsShown: 10 }).hasNext).toBe(false);
  });

  it("pages past a capped count while pages come back full", () => {
    // 4,000 matches of a search, counted to 2,001: 81 pages of 25 counted.
    expect(pagerState({ page: 80, pageSize: 25, totalPages: 81, capped: true, rowsShown: 25 })).toEqual({
      shownPage: 81,
      knownPages: 81,
      hasNext: true,
    });
    expect(pagerState({ page: 119, pageSize: 25, totalPages: 81, capped: true, rowsShown: 25 })).toEqual({
      shownPage: 120,
      knownPages: 120,
      hasNext: true,
    });
    expect(pagerState({ page: 159, pageSize: 25, totalPages: 81, capped: true, rowsShown: 0 }).hasNext).toBe(false);
  });
});

describe("the export's toast", () => {
  it("says the spec's words, and what the file left out past its 10,000 rows", () => {
    expect(exportDoneMessage(null)).toBe("Export completed successfully");
    expect(exportDoneMessage("2000")).toBe(
      "Export completed successfully: the first 10,000 rows; 2,000 more URLs match, so narrow the view to export them",
    );
    expect(exportDoneMessage("some")).toBe(
      "Export completed successfully: the first 10,000 rows; more URLs match, so narrow the view to export them",
    );
  });
});
