import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRACE_KEY_WORD_CHARS, TRACE_MAX_KEY_WORDS, type AnswerTrace, type ConversationDetail } from "@contract";
import { clientApps } from "../db/schema";
import { chatCall } from "../../tests/support/chat-call";
import { searchHit } from "../../tests/support/search-hit";
import { apiCaller, signInAs } from "../../tests/support/test-host";
import { indexedSite } from "../../tests/support/widget-chat";
import { startStandInModel } from "../../tests/support/stand-in-model";
import { traceOf } from "./trace";
import { qualityCheckControl, topicControl } from "../../tests/support/controls";

/*
 * What an answer's trace records (docs/decisions/028), asked as the widget asks and read back from
 * the transcript, on the bundled demo site's pages: which passages the answer's text was drawn
 * from, against the sources the visitor was shown.
 */
const DEMO_PAGES = ["index.html", "admissions.html", "tuition.html", "campus-life.html", "contact.html", "programs/"];

let site: Awaited<ReturnType<typeof indexedSite>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;

beforeAll(async () => {
  site = await indexedSite(
    DEMO_PAGES.map((page) => ({
      path: `/demo/${page}`,
      html: readFileSync(path.resolve("public/demo-site", page.replace(/\/$/, "/index.html")), "utf8"),
    })),
  );
  call = apiCaller(site.host);
  admin = (await signInAs(site.host, "admin@example.com")).user_token;
  appId = (await site.host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
}, 120_000);
afterAll(() => site?.close());

/** A visitor's question through the widget's call, with the trace its answer was stored with. */
async function askAndTrace(message: string) {
  const asked = await chatCall(site.host.api, { key: site.key, trigger_point: "admissions", message });
  const transcript = await call("GET", `/v1/apps/${appId}/conversations/${asked.conversation}`, { token: admin });
  expect(transcript.status).toBe(200);
  const answer = (transcript.body as ConversationDetail).messages.find((m) => m.id === asked.answer)!;
  return { ...asked, trace: answer.trace! };
}

const pageOf = (url: string | null) => url!.slice(`${site.base}/demo`.length);
const used = (trace: AnswerTrace) => trace.passages.filter((p) => p.used);
const listed = (trace: AnswerTrace) => trace.passages.filter((p) => p.listed);

describe("the passages a trace marks used", () => {
  it("are the one the answer quotes, and those only listed beside it are marked listed, as the widget lists them", async () => {
    const fee = await askAndTrace("How much is the application fee?");
    expect(fee.text).toBe(
      "The application fee is $40 and is waived for students who qualify for a fee waiver or who visit campus before applying.",
    );
    // One sentence of the first passage: that one is used, and no other.
    expect(used(fee.trace).map((p) => [p.rank, pageOf(p.url)])).toEqual([[1, "/admissions.html"]]);
    expect(fee.trace.passages[0].text).toContain("The application fee is $40");
    // The tuition page's passages were listed beside it as a source, quoting nothing.
    expect(fee.sources.map((s) => pageOf(s.url))).toEqual(["/admissions.html", "/tuition.html"]);
    expect(listed(fee.trace).map((p) => [p.rank, pageOf(p.url), p.used])).toEqual([
      [1, "/admissions.html", true],
      [2, "/tuition.html", false],
      [3, "/tuition.html", false],
    ]);
    // The pages the trace says were listed are the sources the visitor was shown.
    expect([...new Set(listed(fee.trace).map((p) => p.url))]).toEqual(fee.sources.map((s) => s.url));

    const nursing = await askAndTrace("How many students does the nursing program admit?");
    expect(nursing.text).toBe("The program admits 120 students each fall.");
    expect(used(nursing.trace).map((p) => [p.rank, p.heading_path])).toEqual([[1, ["Programs", "Nursing (BSN)"]]]);
    expect(nursing.trace.passages.filter((p) => p.listed && !p.used).length).toBeGreaterThan(0);
  });

  it("are none for a fallback, which lists no source", async () => {
    const fallback = await askAndTrace("Is there a quantum teleportation lab?");
    expect(fallback.outcome).toBe("fallback");
    expect(fallback.trace.passages.every((p) => !p.used && !p.listed)).toBe(true);
  });

  it("are those a language model cited, and none when it cited none though the quoted answer's sources are listed", async () => {
    const replies: string[] = [];
    const model = await startStandInModel(() => replies.shift());
    site.host.deps.config.llm = model.config;
    try {
      replies.push("Applying costs $40 [2].");
      const cited = await askAndTrace("How much is the application fee?");
      expect(cited.text).toBe("Applying costs $40 [1].");
      // The passage the model was given as [2], and cited: the one the trace marks used.
      const second = model.requests.at(-1)!.user.split(/^\[\d+\] [^\n]*\n/m)[2];
      expect(cited.trace.model).toBe(true);
      expect(used(cited.trace)).toHaveLength(1);
      expect(used(cited.trace)[0]).toMatchObject({ listed: true });
      expect(second.startsWith(used(cited.trace)[0].text.slice(0, 40))).toBe(true);
      expect(cited.sources.map((s) => s.url)).toEqual([used(cited.trace)[0].url]);

      replies.push("Applying costs $40.");
      const uncited = await askAndTrace("How much is the application fee?");
      expect(uncited.sources.length).toBeGreaterThan(0);
      expect(used(uncited.trace)).toEqual([]);
      expect([...new Set(listed(uncited.trace).map((p) => p.url))]).toEqual(uncited.sources.map((s) => s.url));

      // A model that finds no answer in the passages: the fallback, and the trace says why.
      replies.push("NO_ANSWER");
      const declined = await askAndTrace("How much is the application fee?");
      expect(declined.outcome).toBe("fallback");
      expect(declined.trace).toMatchObject({ model: true, fallback_reason: "model_declined" });
      expect(declined.trace.passages.every((p) => !p.used && !p.listed)).toBe(true);
    } finally {
      site.host.deps.config.llm = null;
      model.close();
    }
  });
});

describe("why an answer came out so", () => {
  it("records a canned answer's No-Go topic, and no retrieval: none ran", async () => {
    const saved = await call("PUT", "/v1/controls", {
      token: admin,
      body: {
        app_id: appId,
        controls: [topicControl("no_go_topics", "legal advice", "I can't give legal advice.")],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const canned = await askAndTrace("Can you give me legal advice about my application fee?");
    expect(canned.outcome).toBe("canned");
    expect(canned.trace).toEqual({
      threshold: 0.04,
      confidence: 0,
      top_score: 0,
      passages: [],
      // Saved on Default's list and asked of an agent: where to edit it.
      controls: [{ type: "no_go_topic", name: "legal advice", from_default: true }],
      model: false,
    });
  });

  it("records why each fallback was one", async () => {
    const reasonOf = async (message: string, options: { after?: string; triggerPoint?: string } = {}) => {
      const earlier = options.after
        ? await chatCall(site.host.api, { key: site.key, trigger_point: "admissions", message: options.after })
        : null;
      const asked = await chatCall(site.host.api, {
        key: site.key,
        trigger_point: options.triggerPoint ?? "admissions",
        message,
        conversation_id: earlier?.conversation,
      });
      expect(asked.outcome, message).toBe("fallback");
      const transcript = await call("GET", `/v1/apps/${appId}/conversations/${asked.conversation}`, { token: admin });
      const trace = (transcript.body as ConversationDetail).messages.at(-1)!.trace!;
      // A fallback quotes nothing and lists no source, whatever its reason.
      expect(trace.passages.every((p) => !p.used && !p.listed)).toBe(true);
      return { reason: trace.fallback_reason, trace };
    };
    expect((await reasonOf("Do you have a swimming pool?")).reason).toBe("no_passage");
    const thin = await reasonOf("Is the library open on Sunday nights for students?");
    expect(thin.reason).toBe("none_quotable");
    expect(thin.trace.passages.length).toBeGreaterThan(0);
    // A follow-up asking an amount of the program's page, which states none.
    expect((await reasonOf("How much does it cost?", { after: "Tell me about the nursing program" })).reason).toBe(
      "no_sentence",
    );
    // The question the demo answers, under a threshold no chance reaches (Student Success's own).
    const strict = await call("PUT", "/v1/controls", {
      token: admin,
      body: {
        app_id: appId,
        controls: [qualityCheckControl(0.99, "studentsuccess")],
      },
    });
    expect(strict.status, JSON.stringify(strict.body)).toBe(200);
    const below = await reasonOf("How much is the application fee?", { triggerPoint: "studentsuccess" });
    expect(below.reason).toBe("below_threshold");
    expect(below.trace.confidence).toBeGreaterThan(0);
    expect(below.trace.threshold).toBe(0.99);
  });
});

describe("a page an AI Finetuning rule excluded", () => {
  it("is said to be left out of the answer's candidates, by which rule", async () => {
    const programs = `${site.base}/demo/programs/`;
    const saved = await call("POST", "/v1/controls/upsert_finetunings", {
      token: admin,
      body: {
        app_id: appId,
        finetunings: [{ trigger_point: "admissions", finetuning_type: "url_pattern", pattern: programs, penalty: 1 }],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    try {
      const nursing = await askAndTrace("How many students does the nursing program admit?");
      expect(nursing.outcome).toBe("fallback");
      expect(nursing.trace.passages.map((p) => p.url)).not.toContain(programs);
      expect(nursing.trace.left_out).toEqual({
        rules: [{ type: "url_pattern", pattern: programs, penalty: 1, pages: [programs], more_pages: false }],
        more_rules: 0,
      });
      // The rule applies to a question no page it removed is about, which says nothing of it.
      const pool = await askAndTrace("Is there a swimming pool?");
      expect(pool.trace.left_out).toBeUndefined();
      // Nor to another agent's answers, whose rules it is not.
      const asked = await chatCall(site.host.api, {
        key: site.key,
        trigger_point: "",
        message: "How many students does the nursing program admit?",
      });
      const transcript = await call("GET", `/v1/apps/${appId}/conversations/${asked.conversation}`, { token: admin });
      expect((transcript.body as ConversationDetail).messages[1].trace!.left_out).toBeUndefined();
    } finally {
      const listed = await call("GET", `/v1/controls/list_finetunings?app_id=${appId}`, { token: admin });
      const ids = (listed.body.finetunings as { id: number }[]).map((rule) => rule.id);
      await call("DELETE", "/v1/controls/bulk_delete_finetunings", { token: admin, body: { app_id: appId, ids } });
    }
  });

  it("keeps the trace bounded: a few rules, a few pages each, cut short", () => {
    const rules = Array.from({ length: 7 }, (_, index) => ({
      type: "url_pattern" as const,
      pattern: `https://example.edu/${index}/${"x".repeat(300)}`,
      penalty: 1,
      pages: [`https://example.edu/${index}/${"y".repeat(300)}`],
      morePages: true,
    }));
    const trace = traceOf({
      hits: [],
      threshold: 0.04,
      confidence: 0,
      drawnFrom: [],
      listed: [],
      controls: [],
      model: false,
      fallbackReason: "no_passage",
      leftOut: rules,
    });
    expect(trace.left_out!.rules).toHaveLength(5);
    expect(trace.left_out!.more_rules).toBe(2);
    expect(trace.left_out!.rules[0]).toMatchObject({ penalty: 1, more_pages: true });
    expect(trace.left_out!.rules[0].pattern).toHaveLength(200);
    expect(trace.left_out!.rules[0].pages[0]).toHaveLength(200);
    expect(JSON.stringify(trace.left_out).length).toBeLessThan(3_000);
  });
});

describe("a trace's passages", () => {
  it("keep a passage the answer used even when retrieval ranked it past the tenth, in its rank", () => {
    const hits = Array.from({ length: 14 }, (_, index) =>
      searchHit({ chunkId: index + 1, urlId: index + 1, url: `https://example.edu/${index + 1}`, text: "…" }),
    );
    const trace = traceOf({
      hits,
      threshold: 0.04,
      confidence: 0.5,
      drawnFrom: [hits[12]],
      listed: [hits[12], hits[0]],
      controls: [],
      model: false,
    });
    expect(trace.passages.map((p) => p.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 13]);
    expect(trace.passages.at(-1)).toMatchObject({ url: "https://example.edu/13", used: true, listed: true });
    expect(trace.passages[0]).toMatchObject({ used: false, listed: true });
  });
});

describe("the question's key words", () => {
  const keyWord = (trace: AnswerTrace, word: string) => trace.key_words?.find((key) => key.word === word);

  it("name each word as the visitor wrote it, weightiest first, with how many passages held it", async () => {
    const { trace } = await askAndTrace("Is there parking for first-year students who bring a car?");
    const words = trace.key_words!;
    expect(words.map((key) => key.word)).toEqual(expect.arrayContaining(["parking", "car", "students"]));
    // Shares of the question's weight: they add up to the whole, the weightiest first.
    expect(words.reduce((sum, key) => sum + key.weight, 0)).toBeCloseTo(1, 2);
    expect(words.map((key) => key.weight)).toEqual([...words.map((key) => key.weight)].sort((a, b) => b - a));
    // The demo's pages say nothing of parking or cars, and much of students.
    expect(keyWord(trace, "parking")).toMatchObject({ passages: 0 });
    expect(keyWord(trace, "car")).toMatchObject({ passages: 0 });
    expect(keyWord(trace, "students")!.passages).toBeGreaterThan(3);
    // A word no passage holds weighs the most: no passage can hold all of the question.
    expect(keyWord(trace, "parking")!.weight).toBeGreaterThan(keyWord(trace, "students")!.weight);
  });

  it("say which of them each passage holds, and a passage's score is their share", async () => {
    const { trace } = await askAndTrace("How much is the application fee?");
    const [top] = trace.passages;
    expect(top.holds).toEqual(expect.arrayContaining(["application", "fee"]));
    for (const passage of trace.passages) {
      const held = passage.holds!.reduce((sum, word) => sum + keyWord(trace, word)!.weight, 0);
      // No penalty applies here: the score is the held words' share (each rounded to a thousandth).
      expect(passage.score).toBeCloseTo(held, 2);
    }
  });

  it("mark a word read as the stored word it nearly is", async () => {
    const { trace } = await askAndTrace("How much is the aplication fee?");
    expect(keyWord(trace, "aplication")).toMatchObject({ corrected: true });
    expect(keyWord(trace, "aplication")!.passages).toBeGreaterThan(0);
    expect(trace.passages[0].holds).toContain("aplication");
  });

  it("say which question of several each is of", async () => {
    const { trace } = await askAndTrace("What is the application fee? When do campus tours leave?");
    expect(trace.parts).toHaveLength(2);
    expect(keyWord(trace, "fee")).toMatchObject({ part: 1 });
    expect(keyWord(trace, "tours")).toMatchObject({ part: 2 });
  });

  it("stay bounded however many words a message holds", async () => {
    // 26 distinct words of 65 characters or more, within the chat's 2,000 characters.
    const long = Array.from({ length: 26 }, (_, index) => `${index}${"w".repeat(64)}`).join(" ");
    const { trace } = await askAndTrace(`Where is the tuition office for ${long}?`);
    expect(trace.key_words).toHaveLength(TRACE_MAX_KEY_WORDS);
    for (const key of trace.key_words!) expect(key.word.length).toBeLessThanOrEqual(TRACE_KEY_WORD_CHARS);
    expect(trace.key_words!.some((key) => key.word.length === TRACE_KEY_WORD_CHARS)).toBe(true);
    for (const passage of trace.passages) expect(passage.holds!.length).toBeLessThanOrEqual(TRACE_MAX_KEY_WORDS);
  });
});
