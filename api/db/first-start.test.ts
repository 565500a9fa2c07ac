import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiConfigFromEnv } from "../config";
import { startApiHost } from "../host";
import { serveDemoSite } from "../../tests/support/demo-site";
import { TEST_SECRETS, apiCaller, freshDatabase, quietLog, signInAs } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";
import { rebuildInsightDays } from "../insights/rollups";
import { clientApps } from "./schema";

/**
 * The first start on an empty database with the bundled demo site, as `npm start` makes it (on
 * PGlite, and on PostgreSQL in that lane): the demo site read and indexed, and the admissions
 * agent's test questions about it asked by the runs that follow, so Test Questions, its runs and
 * the History are not empty for a newcomer.
 */
let demo: Awaited<ReturnType<typeof serveDemoSite>>;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let host: Awaited<ReturnType<typeof startApiHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
const storageDir = mkdtempSync(path.join(tmpdir(), "console-first-start-"));

beforeAll(async () => {
  demo = await serveDemoSite();
  database = await freshDatabase();
  host = await startApiHost({
    database: database.options,
    storageDir,
    config: { ...apiConfigFromEnv({ CRAWL_ALLOW_PRIVATE: "true" }, TEST_SECRETS), demoSiteUrl: demo.url },
    log: quietLog,
  });
  await host.resumePipeline();
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(async () => {
  await host?.close();
  await database?.drop();
  await demo?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

describe("the first start with the demo site", () => {
  it("gives the admissions agent test questions about the demo site's pages, one of them expecting the fallback", async () => {
    const { body } = await call("GET", `/v1/apps/${appId}/test_questions?trigger_point=admissions&page_size=100`, {
      token,
    });
    expect(body.total).toBeGreaterThanOrEqual(5);
    expect(body.total).toBeLessThanOrEqual(8);
    const questions = body.data as { expect_source: string | null; expect_outcome: string | null }[];
    const sources = questions.flatMap((question) => (question.expect_source ? [question.expect_source] : []));
    expect(sources.length).toBe(body.total - 1);
    for (const source of sources) expect(source.startsWith(demo.url)).toBe(true);
    expect(questions.filter((question) => question.expect_outcome === "fallback")).toHaveLength(1);
  });

  it("reads and indexes the demo site, then runs the questions in stage: every one passes, asked through the responder", async () => {
    const { body: websites } = await call("GET", `/v1/apps/${appId}/websites`, { token });
    const [site] = websites.websites;
    expect(site.url).toBe(demo.url);
    await until(
      "every demo page indexed",
      async () => {
        const { body } = await call("GET", `/v1/apps/${appId}/websites/${site.id}/urls?page_size=100`, { token });
        return body.data.length === 6 && body.data.every((url: { status: string }) => url.status === "indexed");
      },
      60_000,
    );
    const stageRun = await until(
      "the stage run to finish",
      async () => {
        const { body } = await call("GET", `/v1/apps/${appId}/test_runs?trigger_point=admissions&environment=stage`, {
          token,
        });
        return body.data.length > 0 && ["done", "failed"].includes(body.data[0].status) && body.data;
      },
      60_000,
    );
    expect(stageRun).toHaveLength(1);
    const { body: run } = await call("GET", `/v1/apps/${appId}/test_runs/${stageRun[0].id}`, { token });
    const failing = run.results.filter((result: { passed: boolean }) => !result.passed);
    expect(failing, JSON.stringify(failing, null, 1)).toEqual([]);
    expect(run).toMatchObject({ status: "done", trigger: "website indexed", error: null });
    expect(run.total).toBe(run.results.length);
    // Real answers from the indexed pages, each citing the page expected.
    const cited = run.results.filter((result: { outcome: string }) => result.outcome === "answered");
    expect(cited.length).toBe(run.total - 1);
    for (const result of cited) expect(result.sources[0].url.startsWith(demo.url)).toBe(true);
  });

  it("has three visitors chat with the admissions agent once the site is indexed, through the chat's own path", async () => {
    type Listed = {
      id: string;
      environment: string;
      trigger_point: string;
      questions: number;
      outcomes: Record<string, number> & { small_talk: number };
      lead: boolean;
      rating: string | null;
    };
    const listed = await until(
      "the demo's conversations",
      async () => {
        const { body } = await call("GET", `/v1/apps/${appId}/conversations?trigger_point=admissions`, { token });
        const rows = body.data as Listed[];
        // Each question answered, and the last visitor's rating in (a conversation is listed once its first message is
        // stored; small talk is a message answered, not a question).
        // Every visitor asks a question: one who has only said hello so far is not done.
        const answered = rows.every(
          (row) =>
            row.questions > 0 &&
            Object.values(row.outcomes).reduce((a, b) => a + b, 0) === row.questions + row.outcomes.small_talk,
        );
        return body.total === 3 && answered && rows.some((row) => row.rating === "down") && rows;
      },
      60_000,
    );
    expect(listed.every((row) => row.environment === "stage" && row.trigger_point === "admissions")).toBe(true);
    // Latest first: the visitor asking about test scores, the one who could not learn about parking, then Maya.
    expect(listed.map((row) => [row.questions, row.lead, row.rating])).toEqual([
      [1, false, null],
      [1, false, "down"],
      [2, true, "up"],
    ]);
    const transcript = async (id: string) =>
      (await call("GET", `/v1/apps/${appId}/conversations/${id}`, { token })).body.messages as {
        role: string;
        outcome: string | null;
        sources: { url: string }[];
        rating: string | null;
        comment: string | null;
        trace: { passages: unknown[] } | null;
        question: string | null;
      }[];
    // Maya's answers cite the tuition page, each with the trace recorded when it was given.
    const maya = (await transcript(listed[2].id)).filter((message) => message.role === "assistant");
    expect(maya.map((answer) => answer.outcome)).toEqual(["answered", "answered"]);
    // The question each answered, as searched: a test question made from it holds no address.
    expect(maya[0].question).toBe("What does tuition cost for out-of-state students?");
    for (const answer of maya) {
      expect(answer.sources[0].url).toBe(`${demo.url}tuition.html`);
      expect(answer.trace?.passages.length).toBeGreaterThan(0);
    }
    // Introducing herself in her first message does not cost Maya her answer: her name and email are not searched.
    // The visitor who says hello gets a greeting back, no search and no source; their question is answered from the
    // admissions page.
    const [hello, scores] = (await transcript(listed[0].id)).filter((message) => message.role === "assistant");
    expect(hello).toMatchObject({
      outcome: "small_talk",
      sources: [],
      trace: { passages: [], small_talk: "greeting" },
    });
    expect(scores.outcome).toBe("answered");
    expect(scores.sources[0].url).toBe(`${demo.url}admissions.html`);
    // The parking question gets the fallback, rated down with the visitor's comment ...
    const [parking] = (await transcript(listed[1].id)).filter((message) => message.role === "assistant");
    expect(parking).toMatchObject({
      outcome: "fallback",
      rating: "down",
      comment: "I needed to know where I can park.",
    });
    // ... and is an unanswered question in Business Insights.
    const { body: insights } = await call(
      "GET",
      `/v1/apps/${appId}/insights?trigger_point=admissions&environment=stage`,
      {
        token,
      },
    );
    expect(insights.unanswered_questions).toEqual([
      expect.objectContaining({
        asked_as: "Is there parking for first-year students who bring a car?",
        trigger_point: "admissions",
      }),
    ]);
    // Maya, who left her name, email and phone, is a lead, and each counts in her score.
    expect(insights.leads.top).toEqual([expect.objectContaining({ name: "Maya", contact: "maya.chen@example.net" })]);
    expect(insights.leads.top[0].reasons).toEqual(["email +30", "phone +20", "name +10", "2 questions +4"]);
    // Four questions and one small talk, counted apart; "Hello!" is no Top question.
    expect(insights.totals).toMatchObject({ conversations: 3, questions: 4, answered: 3, fallback: 1, small_talk: 1 });
    // Her question counts by what she asked, not with her address; the same when the day's rollups are rebuilt.
    const topQuestions = (body: { top_questions: { question: string }[] }) =>
      body.top_questions.map((row) => row.question).sort();
    expect(topQuestions(insights)).toEqual([
      "can i pay it in monthly installments",
      "do i need to send my test scores",
      "is there parking for first-year students who bring a car",
      "what does tuition cost for out-of-state students",
    ]);
    await rebuildInsightDays(appId, [new Date().toISOString().slice(0, 10)], host.deps.db);
    const { body: rebuilt } = await call(
      "GET",
      `/v1/apps/${appId}/insights?trigger_point=admissions&environment=stage`,
      {
        token,
      },
    );
    expect(topQuestions(rebuilt)).toEqual(topQuestions(insights));
    expect(rebuilt.totals).toEqual(insights.totals);
  });

  it("records the demo configuration in the History, as the administrator's", async () => {
    const { body } = await call("GET", `/v1/apps/${appId}/history`, { token });
    const changes = body.data as { kind: string; summary: string; user_email: string }[];
    expect(changes.map((change) => [change.kind, change.user_email]).sort()).toEqual([
      ["data_model", "admin@example.com"],
      ["data_model", "admin@example.com"],
      ["test_questions", "admin@example.com"],
      ["website", "admin@example.com"],
    ]);
    expect(changes.find((change) => change.kind === "website")!.summary).toBe(`Website ${demo.url} added`);
    expect(changes.find((change) => change.kind === "test_questions")!.summary).toMatch(
      /^Test Questions of Admissions Assistant: \d+ added$/,
    );
  });
});
