import { eq } from "drizzle-orm";
import type { ChatEvent } from "@contract";
import { clientApps } from "../../api/db/schema";
import { startFixtureSite } from "./fixture-site";
import { indexPages } from "./index-pages";
import { apiCaller, signInAs, startTestHost } from "./test-host";

/**
 * Pages served on 127.0.0.1 (`path` ⇒ HTML), indexed by the real pipeline for Northfield on a
 * fresh test host, and the embed key its widget asks with.
 */
export async function indexedSite(pages: { path: string; html: string }[]) {
  const site = await startFixtureSite();
  for (const page of pages) site.setRaw(page.path, "text/html; charset=utf-8", page.html);
  const host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 10_000, chatRateLimitPerMinute: 10_000 });
  const call = apiCaller(host);
  const admin = (await signInAs(host, "admin@example.com")).user_token;
  const appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  await indexPages(call, admin, appId, pages.map((page) => `${site.base}${page.path}`));
  const key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin })).body.key as string;
  return {
    host,
    base: site.base,
    key,
    close: async () => {
      await host.close();
      await site.close();
    },
  };
}

/** A question as the widget asks it (POST /v1/chat), read to the end: the answer, its outcome and first source. */
export async function askWidget(site: Awaited<ReturnType<typeof indexedSite>>, message: string) {
  const response = await site.host.api.request("/v1/chat", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: site.key, trigger_point: "admissions", message }),
  }, { incoming: { ip: "203.0.113.50" } });
  const events = (await response.text()).trim().split("\n").map((line) => JSON.parse(line) as ChatEvent);
  const text = events.map((event) => (event.type === "delta" ? event.text : "")).join("");
  const done = events.find((event): event is Extract<ChatEvent, { type: "done" }> => event.type === "done");
  return { text, outcome: done?.outcome ?? "error", firstSource: done?.sources[0]?.url ?? "" };
}
