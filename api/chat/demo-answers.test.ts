/**
 * The bundled demo site's own questions, answered from its pages as the widget asks them: the
 * sentence chosen is the one about what the question is about, not one that shares a verb.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askWidget, indexedSite } from "../../tests/support/widget-chat";
import { messages } from "../db/schema";
import { askingSentencesOf } from "./responder";

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

describe("what a visitor says besides the question", () => {
  /** The trace of the answer just given: what retrieval searched, when not the whole message. */
  const lastSearched = async () => {
    const [answer] = await site.host.deps.db
      .select({ trace: messages.trace })
      .from(messages)
      .where(eq(messages.role, "assistant"))
      .orderBy(desc(messages.id))
      .limit(1);
    return (answer.trace as { searched?: string }).searched;
  };

  it.each([
    [
      "Hey, thanks so much for your help earlier. How much is the application fee?",
      "$40",
      "/demo/admissions.html",
      "How much is the application fee?",
    ],
    [
      "Hi, I'm Maya Chen, maya.chen@example.net. What does tuition cost for out-of-state students?",
      "$19,800",
      "/demo/tuition.html",
      "Hi. What does tuition cost for out-of-state students?",
    ],
    ["What does tuition cost?", "$12,400", "/demo/tuition.html", undefined],
  ])("answers %j with %s from %s, searching %j", async (message, expected, page, searched) => {
    const answer = await askWidget(site, message);
    expect(answer.text).toContain(expected);
    expect(answer.firstSource).toBe(`${site.base}${page}`);
    expect(await lastSearched()).toBe(searched);
  });

  it("searches the sentences that ask something alone only when others say something else", () => {
    expect(askingSentencesOf("Thanks for your help. How much is the application fee?")).toBe(
      "How much is the application fee?",
    );
    expect(askingSentencesOf("I study abroad. What TOEFL score do I need? And by which date?")).toBe(
      "What TOEFL score do I need? And by which date?",
    );
    expect(askingSentencesOf("How much is the application fee?")).toBeNull();
    expect(askingSentencesOf("Can a packet be sent empty? If so, is it billable?")).toBeNull();
    expect(askingSentencesOf("Tell me about tuition.")).toBeNull();
    // A question the splitter cuts after an abbreviation keeps its whole.
    expect(askingSentencesOf("How many men were in the Infantry No. 15?")).toBeNull();
    expect(askingSentencesOf("In what year was the Infantry Regiment No. 13 established?")).toBeNull();
  });
});
