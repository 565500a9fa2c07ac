import { describe, expect, it } from "vitest";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";

/**
 * Readability is patched (patches/@mozilla+readability+*.patch) so that it does no work whose
 * result it throws away: it read every node's whole text while looking for a byline, before the
 * cheap checks that rule nearly all of them out, and it serialised the article for a debug message
 * with debugging off (together ~5 % of a page's extraction, decision 017). What it finds must not
 * change.
 */
const articleOf = (body: string) => {
  const { document } = parseHTML(`<html><head><title>T</title></head><body>${body}</body></html>`);
  return new Readability(document as unknown as Document).parse();
};
const prose = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i} of the article, long enough to count as content, with commas, clauses, and more words to read.</p>`).join("");

describe("Readability, patched", () => {
  it("still finds a byline by its class, rel or itemprop, and only a short one", () => {
    expect(articleOf(`<article><p class="byline">By Ada Lovelace</p>${prose}</article>`)?.byline).toBe("By Ada Lovelace");
    expect(articleOf(`<article><a rel="author" href="/ada">Ada Lovelace</a>${prose}</article>`)?.byline).toBe("Ada Lovelace");
    expect(articleOf(`<article><span itemprop="author">Ada Lovelace</span>${prose}</article>`)?.byline).toBe("Ada Lovelace");
    expect(articleOf(`<article><p class="byline">${"A byline far too long to be one. ".repeat(5)}</p>${prose}</article>`)?.byline).toBeFalsy();
  });

  it("reads a node's text only when the node looks like a byline", () => {
    const reader = new Readability(parseHTML("<html><body></body></html>").document as unknown as Document) as unknown as {
      _isValidByline: (node: unknown, match: string) => boolean;
    };
    const node = { getAttribute: () => null, get textContent(): string { throw new Error("text read"); } };
    expect(reader._isValidByline(node, "story body")).toBe(false);
  });

  it("does not serialise the article when debugging is off", () => {
    const { document } = parseHTML(`<html><body><article>${prose}</article></body></html>`);
    // The article is handed back as the element itself, as the extraction does, so nothing needs its markup.
    const reader = new Readability<Element>(document as unknown as Document, { serializer: (node) => node as Element });
    const internals = reader as unknown as { _grabArticle: () => Element | null };
    const grab = internals._grabArticle.bind(reader);
    let serialised = 0;
    internals._grabArticle = () => {
      const article = grab();
      if (article) Object.defineProperty(article, "innerHTML", { configurable: true, get: () => ((serialised += 1), "") });
      return article;
    };
    expect(reader.parse()?.textContent).toContain("Paragraph 7");
    expect(serialised).toBe(0);
  });
});
