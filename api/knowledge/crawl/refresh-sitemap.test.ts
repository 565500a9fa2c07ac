import { describe, expect, it } from "vitest";
import { reviewMarks } from "./refresh-sitemap";

const page = (id: number, url: string, extra: Partial<Parameters<typeof reviewMarks>[0][number]> = {}) => ({
  id,
  url,
  lastmod: "2026-01-01",
  status: "indexed",
  inSitemap: true,
  review: null as string | null,
  ...extra,
});

const marksOf = (pages: Parameters<typeof reviewMarks>[0], listed: Record<string, string | null>, complete = true) => {
  const { updates, counts } = reviewMarks(
    pages,
    new Map(Object.entries(listed).map(([url, lastmod]) => [url, { lastmod }])),
    complete,
  );
  return { marks: Object.fromEntries(updates.map((u) => [u.id, u.review])), counts };
};

describe("a sitemap refresh's review marks", () => {
  it("marks what changed since the sitemaps were read: gone, listed again, a new lastmod", () => {
    const { marks, counts } = marksOf(
      [
        page(1, "/gone"),
        page(2, "/back", { inSitemap: false, review: "reviewed" }),
        page(3, "/moved"),
        page(4, "/same"),
      ],
      { "/back": null, "/moved": "2026-02-01", "/same": "2026-01-01" },
    );
    expect(marks).toEqual({ 1: "removed", 2: "new", 3: "changed", 4: "unchanged" });
    expect(counts).toEqual({ new: 1, removed: 1, changed: 1, unchanged: 1 });
  });

  it("marks no page removed when a limit cut the sitemaps' reading short", () => {
    const { marks, counts } = marksOf([page(1, "/unread"), page(2, "/moved")], { "/moved": "2026-02-01" }, false);
    expect(marks).toEqual({ 2: "changed" });
    expect(counts.removed).toBe(0);
  });

  it("never marks a page given by hand removed", () => {
    expect(marksOf([page(1, "/by-hand", { inSitemap: false, lastmod: null })], {}).marks).toEqual({});
  });

  it("leaves marks as they are when nothing changed: a reviewed removal, marks awaiting review", () => {
    const { marks } = marksOf(
      [
        page(1, "/reviewed-gone", { inSitemap: false, review: "reviewed" }),
        page(2, "/still-new", { review: "new" }),
        page(3, "/still-changed", { review: "changed", lastmod: "2026-02-01" }),
      ],
      { "/still-new": "2026-01-01", "/still-changed": "2026-02-01" },
    );
    expect(marks).toEqual({});
  });

  it("does not mark a page the operator deleted removed, but marks it changed", () => {
    const { marks } = marksOf([page(1, "/deleted", { status: "deleted" }), page(2, "/moved", { status: "deleted" })], {
      "/moved": "2026-03-01",
    });
    expect(marks).toEqual({ 1: null, 2: "changed" });
  });
});
