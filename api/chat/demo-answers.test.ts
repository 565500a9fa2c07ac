/**
 * The bundled demo site's own questions, answered from its pages as the widget asks them: the
 * sentence chosen is the one about what the question is about, not one that shares a verb.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatEvent } from "../../contract";
import { clientApps } from "../db/schema";
import { startFixtureSite } from "../../tests/support/fixture-site";
import { indexPages } from "../../tests/support/index-pages";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

const DEMO_PAGES = ["index.html", "admissions.html", "tuition.html", "campus-life.html", "contact.html"];

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let key: string;

beforeAll(async () => {
  site = await startFixtureSite();
  for (const page of DEMO_PAGES) site.setRaw(`/demo/${page}`, "text/html; charset=utf-8", readFileSync(path.resolve("public/demo-site", page), "utf8"));
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 10_000, chatRateLimitPerMinute: 10_000 });
  const call = apiCaller(host);
  const admin = (await signInAs(host, "admin@example.com")).user_token;
  const appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  await indexPages(call, admin, appId, DEMO_PAGES.map((page) => `${site.base}/demo/${page}`));
  key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin })).body.key;
}, 120_000);
afterAll(async () => {
  await host?.close();
  await site?.close();
});

async function ask(message: string) {
  const response = await host.api.request("/v1/chat", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, trigger_point: "admissions", message }),
  }, { incoming: { ip: "203.0.113.60" } });
  const events = (await response.text()).trim().split("\n").map((line) => JSON.parse(line) as ChatEvent);
  const text = events.filter((e): e is Extract<ChatEvent, { type: "delta" }> => e.type === "delta").map((e) => e.text).join("");
  const done = events.find((e): e is Extract<ChatEvent, { type: "done" }> => e.type === "done")!;
  return { text, firstSource: done.sources[0]?.url ?? "" };
}

describe("the demo site's questions", () => {
  it.each([
    ["What does tuition cost?", "$12,400", "/demo/tuition.html"],
    ["How much will tuition cost?", "$12,400", "/demo/tuition.html"],
    ["How much do housing and meals cost?", "$6,100", "/demo/tuition.html"],
  ])("answers %j with %s, citing %s", async (question, expected, page) => {
    const answer = await ask(question);
    expect(answer.text).toContain(expected);
    expect(answer.firstSource).toBe(`${site.base}${page}`);
  });
});
