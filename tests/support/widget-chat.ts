import { expect } from "vitest";
import { eq } from "drizzle-orm";
import { clientApps } from "../../api/db/schema";
import { chatCall } from "./chat-call";
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
  await indexPages(
    host,
    admin,
    appId,
    pages.map((page) => `${site.base}${page.path}`),
  );
  const key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin }))
    .body.key as string;
  return {
    host,
    base: site.base,
    appId,
    key,
    close: async () => {
      await host.close();
      await site.close();
    },
  };
}

/** A question as the widget asks it (POST /v1/chat), read to the end: the answer, its outcome and first source. */
export async function askWidget(site: Awaited<ReturnType<typeof indexedSite>>, message: string) {
  const { text, outcome, sources } = await chatCall(site.host.api, {
    key: site.key,
    trigger_point: "admissions",
    message,
  });
  return { text, outcome, firstSource: sources[0]?.url ?? "" };
}

/** A page of a site in `lang`: its title as its h1, then its paragraphs. */
export const pageIn = (
  lang: string,
  title: string,
  paragraphs: string[],
) => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
  <title>${title}</title></head><body><main><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("")}</main></body></html>`;

/** An English page beside a site's others: what every language's site must go on answering. */
export const visitPage = {
  path: "/en/visit",
  html: pageIn("en", "Visit us", [
    "Campus tours leave the welcome center every weekday at 10 a.m. and 2 p.m.; book a seat online.",
  ]),
};

/** `question` is answered with a text holding `answer`, citing the site's page at `path` first. */
export async function expectAnsweredFrom(
  site: Awaited<ReturnType<typeof indexedSite>>,
  question: string,
  answer: string,
  path: string,
) {
  const asked = await askWidget(site, question);
  expect(asked.outcome, question).toBe("answered");
  expect(asked.text, question).toContain(answer);
  expect(asked.firstSource, question).toBe(`${site.base}${path}`);
}

/** `question`, which no page is about, gets the fallback. */
export async function expectFallback(site: Awaited<ReturnType<typeof indexedSite>>, question: string) {
  expect((await askWidget(site, question)).outcome, question).toBe("fallback");
}
