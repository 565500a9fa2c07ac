/**
 * The bundled demo site's own questions, answered from its pages as the widget asks them: the
 * sentence chosen is the one about what the question is about, not one that shares a verb.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCall } from "../../tests/support/chat-call";
import { askWidget, indexedSite } from "../../tests/support/widget-chat";
import type { AnswerTrace } from "@contract";
import { conversations, insightQuestions, messages } from "../db/schema";
import { readInsights } from "../insights/queries";
import { rebuildInsightDays } from "../insights/rollups";
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
      "What does tuition cost for out-of-state students?",
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

describe("small talk", () => {
  it.each([
    ["hi", "Hello! What would you like to know?"],
    ["Good morning!", "Hello! What would you like to know?"],
    ["Thank you so much!", "You're welcome! Is there anything else I can help you with?"],
    ["ok, thanks", "You're welcome! Is there anything else I can help you with?"],
    ["Thanks, bye!", "Goodbye, and thank you for your visit!"],
    ["Sounds good", "Is there anything else I can help you with?"],
    // The visitor's name and address alone: before, the word "email" left found the contact page's address.
    ["My name is Mira and my email is mira@example.com", "Thank you, Mira! What would you like to know?"],
    ["Hi, I'm Maya Chen", "Hello, Maya! What would you like to know?"],
  ])("replies to %j with %j, citing nothing", async (message, reply) => {
    const answer = await askWidget(site, message);
    expect(answer).toEqual({ outcome: "small_talk", text: reply, firstSource: "" });
  });

  it("searches a message that asks something beside its greeting or thanks", async () => {
    expect(await askWidget(site, "Hi, what does tuition cost?")).toMatchObject({ outcome: "answered" });
    expect((await askWidget(site, "Hi, what does tuition cost?")).text).toContain("$12,400");
  });

  it("is not a question: the conversation counts none for it, and a follow-up leans on the question before it", async () => {
    const ask = (message: string, conversation?: string) =>
      chatCall(site.host.api, { key: site.key, trigger_point: "admissions", message, conversation_id: conversation });
    const first = await ask("Hello!");
    expect((await ask("Tell me about housing and meals.", first.conversation)).outcome).toBe("answered");
    expect((await ask("Great, thanks!", first.conversation)).outcome).toBe("small_talk");
    // "it" is the housing asked about two messages before, not the thanks just before.
    const followUp = await ask("How much does it cost?", first.conversation);
    expect(followUp.text).toContain("$6,100");
    expect(followUp.sources[0].url).toBe(`${site.base}/demo/tuition.html`);
    // Its trace names the question it leaned on; the two together, as a test question asks them, find the same.
    const [traced] = await site.host.deps.db
      .select({ trace: messages.trace })
      .from(messages)
      .where(eq(messages.id, followUp.answer));
    expect((traced.trace as { follow_up?: string }).follow_up).toBe("Tell me about housing and meals.");
    const alone = await askWidget(site, "Tell me about housing and meals. How much does it cost?");
    expect(alone.text).toContain("$6,100");
    const [row] = await site.host.deps.db
      .select({
        questions: conversations.questionCount,
        last: conversations.lastQuestion,
        smallTalk: conversations.smallTalk,
      })
      .from(conversations)
      .where(eq(conversations.id, first.conversation));
    expect(row).toEqual({ questions: 2, last: "How much does it cost?", smallTalk: 2 });
  });
});

describe("several questions in one message", () => {
  /** The trace of an answer, as stored. */
  const traceOf = async (answerId: number) =>
    (await site.host.deps.db.select({ trace: messages.trace }).from(messages).where(eq(messages.id, answerId)))[0]
      .trace as AnswerTrace;
  const ask = (message: string) => chatCall(site.host.api, { key: site.key, trigger_point: "admissions", message });

  it("answers each, in order, with the sources of both; the trace holds each question and its passages", async () => {
    const answer = await ask("What is the application fee? When do campus tours leave?");
    expect(answer.outcome).toBe("answered");
    const [fee, tours] = answer.text.split("\n\n");
    expect(fee).toContain("$40");
    expect(tours).toContain("10 am");
    expect(answer.sources.map((source) => source.url)).toEqual(
      expect.arrayContaining([`${site.base}/demo/admissions.html`, `${site.base}/demo/contact.html`]),
    );
    const trace = await traceOf(answer.answer);
    expect(trace.parts).toEqual([
      expect.objectContaining({ question: "What is the application fee?", outcome: "answered" }),
      expect.objectContaining({ question: "When do campus tours leave?", outcome: "answered" }),
    ]);
    expect(trace.confidence).toBeUndefined();
    expect(new Set(trace.passages.map((passage) => passage.part))).toEqual(new Set([1, 2]));
    expect(trace.passages.map((passage) => passage.rank)).toEqual(trace.passages.map((_, index) => index + 1));
  });

  it("says which question nothing answered", async () => {
    const answer = await ask("What is the application fee? Is there a velodrome on campus?");
    expect(answer.outcome).toBe("answered");
    expect(answer.text).toContain("$40");
    expect(answer.text.split("\n\n")[1]).toBe(
      "I couldn't find an answer to “Is there a velodrome on campus?” in our published information.",
    );
    const trace = await traceOf(answer.answer);
    expect(trace.parts?.map((part) => part.outcome)).toEqual(["answered", "fallback"]);
    expect(trace.parts?.[1].fallback_reason).toBeDefined();
  });

  it("counts each question in Insights: the one nothing answered is listed as unanswered, with its closest passages, live and rebuilt", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const scope = { appId: site.appId, from: today, to: today, environment: "all" as const };
    // Read from the rollup itself: the Top questions list holds the ten most asked of this file's questions.
    const toursAsked = async () =>
      (
        await site.host.deps.db
          .select({ asked: insightQuestions.asked })
          .from(insightQuestions)
          .where(eq(insightQuestions.questionKey, "when do campus tours leave"))
      ).reduce((sum, row) => sum + row.asked, 0);
    const toursBefore = await toursAsked();
    await ask("When do campus tours leave? Is there a planetarium on campus?");
    const listed = async () => {
      const insights = await readInsights(scope, site.host.deps);
      const gap = insights.unanswered_questions.find((q) => q.question === "is there a planetarium on campus");
      const whole = insights.top_questions.some((q) => q.question.includes("leave? is there"));
      return { toursAsked: await toursAsked(), gap, whole };
    };
    const live = await listed();
    expect(live.toursAsked).toBe(toursBefore + 1);
    expect(live.gap).toMatchObject({ unanswered: 1, asked_as: "Is there a planetarium on campus?" });
    expect(live.gap?.fallback_reason).not.toBeNull();
    expect(live.gap?.closest.length).toBeGreaterThan(0);
    expect(live.gap?.closest.every((passage) => !("part" in passage))).toBe(true);
    expect(live.whole).toBe(false);
    // Rebuilt from the stored messages (as after a person's deletion), the lists say the same.
    await rebuildInsightDays(site.appId, [today], site.host.deps.db);
    expect(await listed()).toEqual(live);
  });

  it("gives the fallback once when nothing answers any of them", async () => {
    const answer = await ask("Is there a velodrome on campus? Who won the game last night?");
    expect(answer.outcome).toBe("fallback");
    expect(answer.text).not.toContain("I couldn't find an answer to");
  });
});
