import { describe, expect, it } from "vitest";
import { isListed } from "./pipeline-shared";
import { plainLastmod } from "./sitemaps";

/** A sitemap is outside input: what of it becomes a URL row, and what is left out. */
const website = { url: "https://www.example.edu/", allowedPatterns: [], skipPatterns: ["/private"] };
const robots = { isAllowed: (url: string) => !url.includes("/blocked") };

describe("sitemap entries", () => {
  it("lists the website's own http(s) pages that pass its patterns and robots.txt", () => {
    expect(isListed({ url: "https://www.example.edu/admissions" }, website, robots)).toBe(true);
    expect(isListed({ url: "https://other.example.org/admissions" }, website, robots)).toBe(false);
    expect(isListed({ url: "https://www.example.edu/private/page" }, website, robots)).toBe(false);
    expect(isListed({ url: "https://www.example.edu/blocked" }, website, robots)).toBe(false);
  });

  it("leaves out addresses that are not storable: control characters, other schemes, too long", () => {
    expect(isListed({ url: "https://www.example.edu/a\u0000b" }, website, robots)).toBe(false);
    expect(isListed({ url: "https://www.example.edu/a\u0007b" }, website, robots)).toBe(false);
    expect(isListed({ url: "javascript:alert(1)//www.example.edu/" }, website, robots)).toBe(false);
    expect(isListed({ url: "www.example.edu/no-scheme" }, website, robots)).toBe(false);
    expect(isListed({ url: `https://www.example.edu/${"a".repeat(2000)}` }, website, robots)).toBe(false);
  });

  it("keeps a lastmod only as short plain text", () => {
    expect(plainLastmod(" 2026-05-01T10:00:00Z ")).toBe("2026-05-01T10:00:00Z");
    expect(plainLastmod(20260501)).toBe("20260501");
    expect(plainLastmod("2026-05-01\u0000")).toBeNull();
    expect(plainLastmod("x".repeat(101))).toBeNull();
    expect(plainLastmod(undefined)).toBeNull();
    expect(plainLastmod("")).toBeNull();
  });
});
