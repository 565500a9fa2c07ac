/**
 * A page's own title finds it: on a generated site whose titles are made of words every other page
 * also uses (and cites other pages by their titles), a visitor asking a page's title, or what the
 * page says about it, gets that page as the first source (retrieval searches titles and headings
 * as fields of their own, docs/decisions/018).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatEvent } from "../../contract";
import { clientApps } from "../db/schema";
import { startFixtureSite } from "../../tests/support/fixture-site";
import { generateSite, type GeneratedPage } from "../../tests/support/generated-site";
import { indexPages } from "../../tests/support/index-pages";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

const PAGES = 40;

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let key: string;
let pages: GeneratedPage[];

beforeAll(async () => {
  site = await startFixtureSite();
  pages = generateSite(PAGES, 7);
  for (const page of pages) site.setRaw(page.path, "text/html; charset=utf-8", page.html);
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 10_000, chatRateLimitPerMinute: 10_000 });
  const call = apiCaller(host);
  const admin = (await signInAs(host, "admin@example.com")).user_token;
  const appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  await indexPages(call, admin, appId, pages.map((page) => `${site.base}${page.path}`));
  key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin })).body.key;
}, 120_000);
afterAll(async () => {
  await host?.close();
  await site?.close();
});

/** The first source the widget's chat call cites for a question, or the outcome when it cites none. */
async function firstSource(message: string) {
  const response = await host.api.request("/v1/chat", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, trigger_point: "admissions", message }),
  }, { incoming: { ip: "203.0.113.50" } });
  const events = (await response.text()).trim().split("\n").map((line) => JSON.parse(line) as ChatEvent);
  const done = events.find((event): event is Extract<ChatEvent, { type: "done" }> => event.type === "done");
  return done?.sources[0]?.url ?? `(${done?.outcome ?? "no answer"})`;
}

describe("a question in the words of a page's title", () => {
  it.each([
    ["is the title itself", (title: string) => title],
    ["asks what the page says about it", (title: string) => `What does the page say about ${title}?`],
  ])("cites that page first when it %s, for at least 95% of the pages", async (_, ask) => {
    const misses: string[] = [];
    for (const page of pages) {
      const cited = await firstSource(ask(page.title));
      if (cited !== `${site.base}${page.path}`) misses.push(`${page.title} → ${cited}`);
    }
    expect(misses.length / pages.length, misses.join("\n")).toBeLessThanOrEqual(0.05);
  });
});
