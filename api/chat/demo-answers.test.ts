/**
 * The bundled demo site's own questions, answered from its pages as the widget asks them: the
 * sentence chosen is the one about what the question is about, not one that shares a verb.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askWidget, indexedSite } from "../../tests/support/widget-chat";

const DEMO_PAGES = ["index.html", "admissions.html", "tuition.html", "campus-life.html", "contact.html"];

let site: Awaited<ReturnType<typeof indexedSite>>;
beforeAll(async () => {
  site = await indexedSite(
    DEMO_PAGES.map((page) => ({
      path: `/demo/${page}`,
      html: readFileSync(path.resolve("public/demo-site", page), "utf8"),
    })),
  );
}, 120_000);
afterAll(() => site?.close());

describe("the demo site's questions", () => {
  it.each([
    ["What does tuition cost?", "$12,400", "/demo/tuition.html"],
    ["How much will tuition cost?", "$12,400", "/demo/tuition.html"],
    ["How much do housing and meals cost?", "$6,100", "/demo/tuition.html"],
    // Typed in a hurry: "tution" is in no page and is not English, so it is read as "tuition".
    ["What does tution cost?", "$12,400", "/demo/tuition.html"],
  ])("answers %j with %s, citing %s", async (question, expected, page) => {
    const answer = await askWidget(site, question);
    expect(answer.text).toContain(expected);
    expect(answer.firstSource).toBe(`${site.base}${page}`);
  });
});
