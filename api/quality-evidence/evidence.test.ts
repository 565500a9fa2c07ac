import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVIDENCE_THRESHOLDS, type ThresholdEvidence } from "@contract";
import { clientApps, messages, testResults, testRuns } from "../db/schema";
import { chatCall } from "../../tests/support/chat-call";
import { startFixtureSite } from "../../tests/support/fixture-site";
import { indexPages } from "../../tests/support/index-pages";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";

/*
 * The Quality Check's evidence, through the API, over pages the real pipeline indexed: test
 * questions run by the real runner, answers given through the real /v1/chat, and visitors' ratings
 * (written here as the feedback call writes them). The questions were chosen for the chance of a
 * right answer the quality check gives each (checked first, so a change of the model is named as such):
 *
 *   0.7–0.8      "Where do first-year students live?"     expects "Lakeside Hall"  → passes up to 0.7
 *   0.7–0.8      "Which hall do first-years live in?"     expects "Old Quad"       → never passes
 *   0            "What is the weather on Mars today?"     expects the fallback     → always passes
 *   0.07–0.1     "Do students live on Mars?"              expects the fallback     → passes from 0.1
 *                                                         (answered at today's 0.04)
 *   0            "When does the library open?"            no passage holds enough of it to quote; expects
 *                                                         a text the fallback holds; ran as a fallback, so
 *                                                         its answer was never checked: never passes
 *   canned       "How much is tuition?"                   no-go topic              → left out
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let viewer: string;
let appId: number;
let otherAppId: number;

const AGENT = "admissions";

beforeAll(async () => {
  site = await startFixtureSite();
  site.setPage(
    "/housing",
    "Housing | Northfield",
    "<h1>Housing</h1><p>First-year students live in Lakeside Hall. Housing applications open in May every year.</p>",
  );
  site.setPage(
    "/tours",
    "Campus tours | Northfield",
    "<h1>Campus tours</h1><p>Guided tours of the campus leave from Founders Hall at 10 am and 2 pm on weekdays.</p>",
  );
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 10_000, chatRateLimitPerMinute: 10_000 });
  call = apiCaller(host);
  admin = (await signInAs(host, "client.admin@example.com")).user_token;
  viewer = (await signInAs(host, "client.user@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  [{ id: otherAppId }] = await host.deps.db
    .insert(clientApps)
    .values({ clientName: "Elsewhere", urlCode: "elsewhere-evidence" })
    .returning();
  await indexPages(host, (await signInAs(host, "admin@example.com")).user_token, appId, [
    `${site.base}/housing`,
    `${site.base}/tours`,
  ]);
  // Before any test question exists, so that no run is queued by the change.
  const noGo = {
    internal_name: "no_go_topics",
    prompt_input_raw: "tuition",
    metadata: { disclaimer: "Please ask the bursar." },
    trigger_point: AGENT,
  };
  expect((await call("PUT", "/v1/controls", { token: admin, body: { app_id: appId, controls: [noGo] } })).status).toBe(
    200,
  );
  for (const question of [
    { question: "Where do first-year students live?", expect_text: "Lakeside Hall", expect_outcome: "answered" },
    { question: "Which hall do first-years live in?", expect_text: "Old Quad" },
    { question: "What is the weather on Mars today?", expect_outcome: "fallback" },
    { question: "Do students live on Mars?", expect_outcome: "fallback" },
    // Met by the fallback's own words when it ran: the run passed it, the replay may not.
    { question: "When does the library open?", expect_text: "published information" },
    { question: "How much is tuition?", expect_outcome: "canned" },
  ]) {
    const added = await call("POST", `/v1/apps/${appId}/test_questions`, {
      token: admin,
      body: { ...question, trigger_point: AGENT },
    });
    expect(added.status).toBe(201);
  }
}, 90_000);
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const evidence = async (triggerPoint = AGENT, token = viewer) =>
  call("GET", `/v1/apps/${appId}/quality_check/evidence?trigger_point=${encodeURIComponent(triggerPoint)}`, { token });

/** Runs the agent's test questions in an environment through the real runner; answers the run as the API shows it. */
async function runTests(environment: "stage" | "prod") {
  const queued = await call("POST", `/v1/apps/${appId}/test_runs`, {
    token: admin,
    body: { trigger_point: AGENT, environment },
  });
  expect(queued.status).toBe(202);
  return until(
    `the ${environment} run to finish`,
    async () => {
      const { body } = await call("GET", `/v1/apps/${appId}/test_runs/${queued.body.id}`, { token: admin });
      return body.status === "done" && body;
    },
    30_000,
  );
}

/** Asks like the widget (POST /v1/chat) and answers the answer's message id and outcome. */
async function ask(message: string, triggerPoint = AGENT) {
  const install = await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=${triggerPoint}`, {
    token: admin,
  });
  const key = install.body.key as string;
  const { answer, outcome } = await chatCall(host.api, { key, trigger_point: triggerPoint, message }, "203.0.113.9");
  return { id: answer, outcome };
}

/** A visitor's thumbs, stored as the widget's feedback call stores it. */
const rate = (messageId: number, rating: "up" | "down") =>
  host.deps.db.update(messages).set({ rating, ratedAt: new Date() }).where(eq(messages.id, messageId));

const confidenceOf = async (messageId: number) =>
  (await host.deps.db.select({ trace: messages.trace }).from(messages).where(eq(messages.id, messageId)))[0].trace
    ?.confidence;

/** The points as `threshold: answered/fallback/passed`, to compare whole tables at a glance. */
const table = (body: ThresholdEvidence) =>
  Object.fromEntries(body.points.map((p) => [String(p.threshold), `${p.answered}/${p.fallback}/${p.passed}`]));
/** The same figures at every threshold. */
const everywhere = (figures: string) => Object.fromEntries(EVIDENCE_THRESHOLDS.map((t) => [String(t), figures]));
/** The same figures at the thresholds below 0.1, where "Do students live on Mars?" (0.07–0.1) is still answered. */
const belowMars = (figures: string) => ({ "0.02": figures, "0.04": figures, "0.07": figures });

describe("the evidence for the threshold", () => {
  it("is empty before anything ran or was rated, with today's value", async () => {
    const { status, body } = await evidence();
    expect(status).toBe(200);
    expect(body).toMatchObject({ current: 0.04, test_results: 0, rated_answers: 0 });
    expect(body.points.map((p: { threshold: number }) => p.threshold)).toEqual([...EVIDENCE_THRESHOLDS]);
    expect(table(body)).toEqual(everywhere("0/0/0"));
  });

  it("replays the latest stage run: answered when the chance reaches the value, passed as each question expects", async () => {
    const run = await runTests("stage");
    const byQuestion = Object.fromEntries(
      run.results.map((r: { question: string; outcome: string; passed: boolean }) => [r.question, r]),
    );
    // How each ran at today's 0.04, and the chances the replay reads: the premises of the counts below.
    expect(byQuestion["When does the library open?"]).toMatchObject({ outcome: "fallback", passed: true });
    expect(byQuestion["How much is tuition?"]).toMatchObject({ outcome: "canned", passed: true });
    expect(byQuestion["Which hall do first-years live in?"]).toMatchObject({ outcome: "answered", passed: false });
    expect(byQuestion["Do students live on Mars?"]).toMatchObject({ outcome: "answered", passed: false });
    const results = await host.deps.db.select().from(testResults).where(eq(testResults.runId, run.id));
    const chances = Object.fromEntries(results.map((r) => [r.question, r.confidence]));
    for (const question of ["Where do first-year students live?", "Which hall do first-years live in?"]) {
      expect(chances[question], question).toBeGreaterThan(0.7);
      expect(chances[question], question).toBeLessThan(0.8);
    }
    expect(chances["What is the weather on Mars today?"]).toBe(0);
    expect(chances["Do students live on Mars?"]).toBeGreaterThan(0.07);
    expect(chances["Do students live on Mars?"]).toBeLessThan(0.1);
    expect(chances["When does the library open?"]).toBe(0);

    const { body } = await evidence();
    expect(body).toMatchObject({ current: 0.04, test_results: 5, rated_answers: 0 });
    expect(table(body)).toEqual({ ...everywhere("2/3/3"), ...belowMars("3/2/2"), "0.8": "0/5/2", "0.9": "0/5/2" });
  });

  it("adds the latest rated answers given through the chat; unrated, canned and other agents' answers are left out", async () => {
    const up = await ask("When do housing applications open?");
    const down = await ask("Where do tours leave from?");
    const wrongish = await ask("Do students live on Mars?");
    const library = await ask("When does the library open?");
    const canned = await ask("How much is tuition?");
    await ask("Where do first-year students live?");
    const elsewhere = await ask("When do housing applications open?", "studentsuccess");
    expect([up.outcome, down.outcome, wrongish.outcome, library.outcome, canned.outcome]).toEqual([
      "answered",
      "answered",
      "answered",
      "fallback",
      "canned",
    ]);
    const chance = async (id: number) => (await confidenceOf(id)) as number;
    expect(await chance(up.id)).toBeGreaterThan(0.6);
    expect(await chance(up.id)).toBeLessThan(0.7);
    expect(await chance(down.id)).toBeGreaterThan(0.5);
    expect(await chance(down.id)).toBeLessThan(0.6);
    expect(await chance(wrongish.id)).toBeGreaterThan(0.07);
    expect(await chance(wrongish.id)).toBeLessThan(0.1);
    expect(await chance(library.id)).toBe(0);
    await rate(up.id, "up");
    await rate(down.id, "down");
    await rate(wrongish.id, "down");
    await rate(library.id, "down");
    await rate(canned.id, "down");
    await rate(elsewhere.id, "up");

    const { body } = await evidence();
    expect(body).toMatchObject({ test_results: 5, rated_answers: 4 });
    // Rated: up at 0.6–0.7 (passes while answered, up to 0.6), down at 0.5–0.6 (passes from 0.6, given the fallback),
    // down below 0.1 and down at 0 (given the fallback at every value: always pass).
    expect(table(body)).toEqual({
      ...everywhere("4/5/6"),
      ...belowMars("6/3/4"),
      "0.6": "3/6/7",
      "0.7": "2/7/6",
      "0.8": "0/9/5",
      "0.9": "0/9/5",
    });
    const other = (await evidence("studentsuccess")).body;
    expect(other).toMatchObject({ test_results: 0, rated_answers: 1 });
    expect(table(other)["0.5"]).toBe("1/0/1");
    expect(table(other)["0.9"]).toBe("0/1/0");
  });

  it("takes each environment's latest finished run only: a newer stage run replaces the older, a prod run adds its own", async () => {
    await runTests("stage");
    expect((await evidence()).body).toMatchObject({ test_results: 5, rated_answers: 4 });
    // A run still going is not finished: its results wait.
    const [running] = await host.deps.db
      .insert(testRuns)
      .values({ appId, triggerPoint: AGENT, environment: "prod", trigger: "manual", status: "running" })
      .returning();
    await host.deps.db.insert(testResults).values({
      runId: running.id,
      question: "Half-way?",
      passed: true,
      outcome: "answered",
      answer: "…",
      topScore: 1,
      confidence: 0.9,
    });
    expect((await evidence()).body).toMatchObject({ test_results: 5 });
    await host.deps.db.delete(testRuns).where(eq(testRuns.id, running.id));

    await runTests("prod");
    const { body } = await evidence();
    expect(body).toMatchObject({ test_results: 10, rated_answers: 4 });
    expect(table(body)).toMatchObject({ "0.1": "6/8/9", "0.5": "6/8/9", "0.6": "5/9/10", "0.9": "0/14/7" });
  });

  it("leaves out results recorded before their chance was kept", async () => {
    const [latestProd] = await host.deps.db
      .select({ id: testRuns.id })
      .from(testRuns)
      .where(and(eq(testRuns.appId, appId), eq(testRuns.environment, "prod"), eq(testRuns.status, "done")))
      .orderBy(desc(testRuns.id))
      .limit(1);
    await host.deps.db.update(testResults).set({ confidence: null }).where(eq(testResults.runId, latestProd.id));
    expect((await evidence()).body).toMatchObject({ test_results: 5, rated_answers: 4 });
  });

  it("marks today's value as saved for the agent", async () => {
    const quality = {
      internal_name: "quality_check",
      prompt_input_raw: "",
      metadata: { min_retrieval_confidence: 0.25 },
      trigger_point: "studentsuccess",
    };
    const saved = await call("PUT", "/v1/controls", { token: admin, body: { app_id: appId, controls: [quality] } });
    expect(saved.status).toBe(200);
    expect((await evidence("studentsuccess")).body.current).toBe(0.25);
    expect((await evidence()).body.current).toBe(0.04);
  });
});

describe("who may see it, and what is refused", () => {
  it("is read by any user of the client; another client's app answers as one that does not exist", async () => {
    expect((await evidence(AGENT, admin)).status).toBe(200);
    expect((await evidence(AGENT, viewer)).status).toBe(200);
    const theirs = await call("GET", `/v1/apps/${otherAppId}/quality_check/evidence`, { token: admin });
    const none = await call("GET", "/v1/apps/2000000000/quality_check/evidence", { token: admin });
    expect(theirs).toEqual({ status: 404, body: { message: "Client not found" } });
    expect(none).toEqual(theirs);
    expect((await call("GET", `/v1/apps/${appId}/quality_check/evidence`)).status).toBe(401);
  });

  it("refuses an unknown, over-long or repeated trigger point with a 400 and a message", async () => {
    const unknown = await evidence("nowhere");
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.trigger_point[0]).toContain("is not a trigger point of this client");
    const long = await evidence("x".repeat(101));
    expect(long.status).toBe(400);
    expect(long.body.message).toEqual(expect.any(String));
    const repeated = await call("GET", `/v1/apps/${appId}/quality_check/evidence?trigger_point=a&trigger_point=b`, {
      token: viewer,
    });
    expect(repeated.status).toBeGreaterThanOrEqual(400);
    expect(repeated.status).toBeLessThan(500);
    expect((await call("GET", "/v1/apps/0/quality_check/evidence", { token: viewer })).status).toBe(400);
    // The same client under another spelling of its id is not another address of it.
    for (const spelling of [`0${appId}`, `${appId}.0`, `${appId}e0`]) {
      const path = `/v1/apps/${spelling}/quality_check/evidence?trigger_point=${AGENT}`;
      expect((await call("GET", path, { token: viewer })).status, spelling).toBe(400);
    }
  });

  it("is documented in /v1/openapi.json", async () => {
    const { body } = await call("GET", "/v1/openapi.json");
    expect(body.paths["/v1/apps/{appId}/quality_check/evidence"].get.summary).toContain("Minimum Retrieval Confidence");
  });
});
