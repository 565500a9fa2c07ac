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

  it("finds a pattern written with letters beyond ASCII or spaces in the address as it is stored", () => {
    // Stored as the URL parser writes it (pageAddress): `/es/admisi%C3%B3n/`, `xn--bcher-kva.example`.
    const spanish = {
      url: "https://www.example.edu/",
      allowedPatterns: ["/Admisión/"],
      skipPatterns: ["Sala de prensa"],
    };
    expect(isListed({ url: "https://www.example.edu/es/admisi%C3%B3n/requisitos" }, spanish, robots)).toBe(true);
    expect(isListed({ url: "https://www.example.edu/es/ADMISI%C3%93N/becas" }, spanish, robots)).toBe(true);
    expect(isListed({ url: "https://www.example.edu/es/admision/requisitos" }, spanish, robots)).toBe(false);
    expect(isListed({ url: "https://www.example.edu/es/admisi%C3%B3n/sala%20de%20prensa" }, spanish, robots)).toBe(
      false,
    );
    // An accent typed as a letter and a combining mark is the same letter.
    const combining = { ...spanish, allowedPatterns: ["/admisio\u0301n/"] };
    expect(isListed({ url: "https://www.example.edu/es/admisi%C3%B3n/requisitos" }, combining, robots)).toBe(true);
    const bookshop = { url: "https://bücher.example/", allowedPatterns: ["bücher.example/katalog"], skipPatterns: [] };
    expect(isListed({ url: "https://xn--bcher-kva.example/katalog/romane" }, bookshop, robots)).toBe(true);
    expect(isListed({ url: "https://xn--bcher-kva.example/blog" }, bookshop, robots)).toBe(false);
    const chinese = { url: "https://www.example.edu/", allowedPatterns: ["学费"], skipPatterns: [] };
    expect(isListed({ url: "https://www.example.edu/zh/%E5%AD%A6%E8%B4%B9" }, chinese, robots)).toBe(true);
    // A pattern written encoded still matches as before; a malformed escape is read as it is stored.
    const encoded = { ...spanish, allowedPatterns: ["admisi%c3%b3n"] };
    expect(isListed({ url: "https://www.example.edu/es/admisi%C3%B3n/" }, encoded, robots)).toBe(true);
    expect(isListed({ url: "https://www.example.edu/es/admisi%E0%A4n/" }, encoded, robots)).toBe(false);
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
