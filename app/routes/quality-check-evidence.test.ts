import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVIDENCE_THRESHOLDS } from "@contract";
import { getRequest, loaderJson, signInToConsole, testContext } from "../../tests/support/console-context";
import { startFixtureSite } from "../../tests/support/fixture-site";
import { indexPages } from "../../tests/support/index-pages";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { testRunRecords } from "../../tests/support/test-runs";
import { until } from "../../tests/support/wait";
import * as quality from "./$appName.agent.$agentName.controls.quality-check";

/**
 * The Quality Check screen's evidence for its threshold: loaded beside the settings from the API,
 * over a page the real pipeline indexed and a stage run of the agent's test questions by the real
 * runner. The counting itself is tested with the API (api/quality-evidence).
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let viewer: string;

beforeAll(async () => {
  site = await startFixtureSite();
  site.setPage("/housing", "Housing | Northfield", "<h1>Housing</h1><p>First-year students live in Lakeside Hall.</p>");
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 10_000 });
  const call = apiCaller(host);
  const token = (await signInAs(host, "admin@example.com")).user_token;
  const appId = await testRunRecords(host).appId("northfield");
  await indexPages(host, token, appId, [`${site.base}/housing`]);
  for (const question of [
    { question: "Where do first-year students live?", expect_text: "Lakeside Hall" },
    { question: "What is the weather on Mars today?", expect_outcome: "fallback" },
  ])
    await call("POST", `/v1/apps/${appId}/test_questions`, {
      token,
      body: { ...question, trigger_point: "admissions" },
    });
  const run = await call("POST", `/v1/apps/${appId}/test_runs`, {
    token,
    body: { trigger_point: "admissions", environment: "stage" },
  });
  const runPage = `/v1/apps/${appId}/test_runs/${run.body.id}`;
  await until("the stage run to finish", async () => (await call("GET", runPage, { token })).body.status === "done");
  viewer = await signInToConsole(host, "client.user@example.com");
}, 90_000);
afterAll(async () => {
  await host?.close();
  await site?.close();
});

/** `/northfield/agent/admissions/…` ⇒ the route params Remix would give the module. */
function paramsOf(path: string) {
  const [, appName, agentWord, agentName] = new URL(path, "http://localhost").pathname.split("/");
  return agentWord === "agent" ? { appName, agentName } : { appName };
}

const load = (path: string, context = testContext(host)) =>
  loaderJson(quality.loader, { request: getRequest(path, viewer), context, params: paramsOf(path) });

describe("the Quality Check screen's evidence", () => {
  it("replays the agent's latest run at each value, beside today's value and the settings", async () => {
    const data = await load("/northfield/agent/admissions/controls/quality-check");
    expect(data.settings).toMatchObject({ min_retrieval_confidence: 0.04 });
    expect(data.evidenceError).toBeNull();
    expect(data.evidence).toMatchObject({ current: 0.04, test_results: 2, rated_answers: 0 });
    // The housing question is answered and right up to its chance (its page holds every word of it, closely); the
    // weather one gets the fallback, as expected, at every value.
    expect(data.evidence!.points).toHaveLength(EVIDENCE_THRESHOLDS.length);
    const at = (threshold: number) => data.evidence!.points.find((point) => point.threshold === threshold);
    for (const threshold of [0.1, 0.5, 0.7])
      expect(at(threshold)).toMatchObject({ answered: 1, fallback: 1, passed: 2 });
    expect(at(0.9)).toMatchObject({ answered: 0, fallback: 2, passed: 1 });
    expect(data.testQuestionsHref).toBe("/northfield/agent/admissions/controls/test-questions");
  });

  it("is empty for an agent with nothing to replay, and points at its test questions", async () => {
    const data = await load("/northfield/controls/quality-check?trigger_point=studentsuccess");
    expect(data.evidence).toMatchObject({ test_results: 0, rated_answers: 0 });
    expect(data.testQuestionsHref).toBe("/northfield/controls/test-questions?trigger_point=studentsuccess");
    // The same screen at an address ending in a slash.
    const slashed = await load("/northfield/controls/quality-check/?trigger_point=studentsuccess");
    expect(slashed.testQuestionsHref).toBe("/northfield/controls/test-questions?trigger_point=studentsuccess");
  });

  it("says when the API refuses the evidence, and the settings still load", async () => {
    const context = testContext(host);
    const apiFetch = context.apiFetch;
    context.apiFetch = async (request) =>
      new URL(request.url).pathname.endsWith("/quality_check/evidence")
        ? Response.json({ message: "Evidence is unavailable" }, { status: 400 })
        : apiFetch(request);
    const data = await load("/northfield/agent/admissions/controls/quality-check", context);
    expect(data).toMatchObject({ evidence: null, evidenceError: "Error: Evidence is unavailable", error: null });
    expect(data.settings).toMatchObject({ min_retrieval_confidence: 0.04 });
  });
});
