import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TRIGGER_POINT, QUALITY_CHECK_DEFAULTS } from "@contract";
import { clientApps } from "../db/schema";
import { searchHit } from "../../tests/support/search-hit";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { HIGHER_ED_PERSONALITY } from "./defaults";
import { QUOTABLE_SHARE } from "../chat/answer-confidence";
import { assistantControls, qualityGate } from "./runtime";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(() => host?.close());

const hit = (score: number, url: string) =>
  searchHit({ url, baseScore: score, bm25: score, score, relevance: score, pageShare: score, near: score });

describe("what an agent runs with", () => {
  it("resolves built-in defaults, Default settings and the trigger point's own", async () => {
    expect(await assistantControls(appId, "admissions", host.deps)).toEqual({
      personality: HIGHER_ED_PERSONALITY,
      sensitiveTopics: [],
      noGoTopics: [],
      qualityCheck: QUALITY_CHECK_DEFAULTS,
      probing: { topics: "", mapping: "" },
      inputPrompts: {},
    });
    await call("PUT", `/v1/controls?app_id=${appId}`, {
      token,
      body: {
        controls: [
          { internal_name: "ai_personality_guidelines", prompt_input_raw: "Client-wide voice." },
          { internal_name: "no_go_topics", prompt_input_raw: "Politics", metadata: { disclaimer: "I stay neutral." } },
          {
            internal_name: "no_go_topics",
            prompt_input_raw: "Rankings",
            metadata: { disclaimer: "I can't compare universities." },
            trigger_point: "admissions",
          },
          { internal_name: "quality_check", metadata: { min_retrieval_confidence: 0.8 }, trigger_point: "admissions" },
        ],
      },
    });
    await call("PUT", `/v1/apps/${appId}/ai_probings`, {
      token,
      body: { ai_probings: [{ internal_name: "topics", prompt_input_raw: "Start term" }] },
    });
    await call("PUT", `/v1/apps/${appId}/input_prompts`, {
      token,
      body: {
        input_prompts: [
          { internal_name: "welcome", prompt_input_raw: "Hello!" },
          { internal_name: "welcome", prompt_input_raw: "Welcome, future student!", trigger_point: "admissions" },
          { internal_name: "closing", prompt_input_raw: "Anything else?" },
          // Written in another case on the agent, it still replaces Default's.
          {
            internal_name: "Closing",
            prompt_input_raw: "Good luck with your application!",
            trigger_point: "admissions",
          },
        ],
      },
    });
    const admissions = await assistantControls(appId, "admissions", host.deps);
    expect(admissions).toMatchObject({
      personality: "Client-wide voice.",
      noGoTopics: [
        { topic: "Politics", cannedResponse: "I stay neutral." },
        { topic: "Rankings", cannedResponse: "I can't compare universities." },
      ],
      qualityCheck: { ...QUALITY_CHECK_DEFAULTS, min_retrieval_confidence: 0.8 },
      probing: { topics: "Start term", mapping: "" },
    });
    // toMatchObject above would pass with Default's "closing" beside the agent's "Closing".
    expect(admissions.inputPrompts).toEqual({
      welcome: "Welcome, future student!",
      Closing: "Good luck with your application!",
    });
    const students = await assistantControls(appId, "studentsuccess", host.deps);
    expect(students.noGoTopics.map((t) => t.topic)).toEqual(["Politics"]);
    expect(students.qualityCheck).toEqual(QUALITY_CHECK_DEFAULTS);
    expect(students.inputPrompts).toEqual({ welcome: "Hello!", closing: "Anything else?" });
    // A quoted answer needs no model instructions: they are left unread, the rest is the same.
    const quoting = await assistantControls(appId, "admissions", host.deps, undefined, { forModel: false });
    expect(quoting).toEqual({ ...admissions, probing: { topics: "", mapping: "" }, inputPrompts: {} });
  });
});

describe("a trigger point's own topics beside Default's", () => {
  it("says the trigger point's own canned response and disclaimer for a topic Default lists too, and Default's once it is deleted", async () => {
    const save = (controls: object[]) => call("PUT", `/v1/controls?app_id=${appId}`, { token, body: { controls } });
    expect(
      (
        await save([
          { internal_name: "sensitive_topics", prompt_input_raw: "Visas", metadata: { disclaimer: "Ask the office." } },
          {
            internal_name: "no_go_topics",
            prompt_input_raw: "politics",
            metadata: { disclaimer: "Admissions counsellors stay out of politics." },
            trigger_point: "admissions",
          },
          {
            internal_name: "sensitive_topics",
            prompt_input_raw: "visas",
            metadata: { disclaimer: "International admissions handles visas." },
            trigger_point: "admissions",
          },
        ])
      ).status,
    ).toBe(200);
    const admissions = await assistantControls(appId, "admissions", host.deps);
    // Each says where it is set: Default's list or the agent's own.
    expect(admissions.noGoTopics).toEqual([
      { topic: "Rankings", cannedResponse: "I can't compare universities.", fromDefault: false },
      { topic: "politics", cannedResponse: "Admissions counsellors stay out of politics.", fromDefault: false },
    ]);
    expect(admissions.sensitiveTopics).toEqual([
      { topic: "visas", disclaimer: "International admissions handles visas.", fromDefault: false },
    ]);
    // Another agent still runs with Default's.
    const students = await assistantControls(appId, "studentsuccess", host.deps);
    expect(students.noGoTopics).toEqual([{ topic: "Politics", cannedResponse: "I stay neutral.", fromDefault: true }]);
    expect(students.sensitiveTopics).toEqual([{ topic: "Visas", disclaimer: "Ask the office.", fromDefault: true }]);
    // Under Default itself, its topics are its own.
    expect((await assistantControls(appId, DEFAULT_TRIGGER_POINT, host.deps)).noGoTopics).toEqual([
      { topic: "Politics", cannedResponse: "I stay neutral.", fromDefault: false },
    ]);
    // The agent's row cleared and saved is deleted: Default's applies to it again.
    const own = (
      await call("GET", `/v1/controls?app_id=${appId}&trigger_point=admissions&types=no_go_topics`, { token })
    ).body.controls as { id: number; prompt_input_raw: string }[];
    const politics = own.find((row) => row.prompt_input_raw === "politics")!;
    await save([
      {
        id: politics.id,
        internal_name: "no_go_topics",
        prompt_input_raw: "",
        metadata: { disclaimer: "" },
        trigger_point: "admissions",
      },
    ]);
    expect((await assistantControls(appId, "admissions", host.deps)).noGoTopics).toEqual([
      { topic: "Politics", cannedResponse: "I stay neutral.", fromDefault: true },
      { topic: "Rankings", cannedResponse: "I can't compare universities.", fromDefault: false },
    ]);
  });
});

describe("the quality check on retrieval results", () => {
  const hits = [hit(1, "a"), hit(0.75, "b"), hit(0.5, "c"), hit(0.3, "d")];
  const gate = (confidence: number, settings: Partial<typeof QUALITY_CHECK_DEFAULTS>, from = hits) =>
    qualityGate(from, confidence, { ...QUALITY_CHECK_DEFAULTS, ...settings });

  it("quotes at most max_sources passages that hold enough of the question, once the chance reaches the minimum", () => {
    expect(gate(0.5, { min_retrieval_confidence: 0.5, max_sources: 2 }).passages.map((h) => h.url)).toEqual(["a", "b"]);
    // A passage holding less than QUOTABLE_SHARE of the question is never quoted.
    expect(QUOTABLE_SHARE).toBeGreaterThan(0.3);
    expect(gate(0.9, { min_retrieval_confidence: 0.5, max_sources: 5 }).passages.map((h) => h.url)).toEqual([
      "a",
      "b",
      "c",
    ]);
  });

  it("answers nothing below the minimum chance, however much of the question the passages hold", () => {
    expect(gate(0.49, { min_retrieval_confidence: 0.5 }).passages).toEqual([]);
    expect(gate(0, { min_retrieval_confidence: 0 }).passages).toEqual([]);
  });

  it("says the fallback message when nothing qualifies and a source is required, and leaves it to the responder otherwise", () => {
    const strict = { min_retrieval_confidence: 0.9 };
    expect(gate(0.5, strict, [hit(0.5, "c")])).toEqual({
      passages: [],
      fallback: QUALITY_CHECK_DEFAULTS.fallback_message,
    });
    expect(gate(0.5, { ...strict, require_source: false }, [hit(0.5, "c")])).toEqual({ passages: [], fallback: null });
    expect(gate(0.95, strict).fallback).toBeNull();
  });
});
