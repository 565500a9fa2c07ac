/**
 * A page's own title finds it: on a generated site whose titles are made of words every other page
 * also uses (and cites other pages by their titles), a visitor asking a page's title, or what the
 * page says about it, gets that page as the first source (retrieval searches titles and headings
 * as fields of their own, docs/decisions/018).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSite } from "../../tests/support/generated-site";
import { askWidget, indexedSite } from "../../tests/support/widget-chat";

const pages = generateSite(40, 7);
let site: Awaited<ReturnType<typeof indexedSite>>;
beforeAll(async () => {
  site = await indexedSite(pages);
}, 120_000);
afterAll(() => site?.close());

describe("a question in the words of a page's title", () => {
  it.each([
    ["is the title itself", (title: string) => title],
    ["asks what the page says about it", (title: string) => `What does the page say about ${title}?`],
  ])("cites that page first when it %s, for at least 95% of the pages", async (_, ask) => {
    const misses: string[] = [];
    for (const page of pages) {
      const answer = await askWidget(site, ask(page.title));
      if (answer.firstSource !== `${site.base}${page.path}`)
        misses.push(`${page.title} → ${answer.firstSource || `(${answer.outcome})`}`);
    }
    expect(misses.length / pages.length, misses.join("\n")).toBeLessThanOrEqual(0.05);
  });
});
