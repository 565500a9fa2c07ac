import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Insights } from "@contract";
import { chunks, insightQuestions, urls, websites } from "../db/schema";
import { rebuildInsightDays } from "./rollups";
import { chatCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, downloadedText, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;
let siteId: number;
const keys: Record<string, string> = {};
const SITE = "https://www.northfield.edu";

const ask = (message: string, options: { env?: "stage" | "prod"; triggerPoint?: string } = {}) =>
  chatCall(host.api, {
    key: keys[options.env ?? "stage"],
    trigger_point: options.triggerPoint ?? "admissions",
    message,
  });

const gapOf = async (question: string, query = "") => {
  const response = await call("GET", `/v1/apps/${appId}/insights${query}`, { token: admin });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as Insights).unanswered_questions.find((gap) => gap.question === question);
};

async function addPage(path: string, title: string, text: string) {
  const [page] = await host.deps.db
    .insert(urls)
    .values({ appId, websiteId: siteId, url: `${SITE}${path}`, title, status: "indexed" })
    .returning();
  await host.deps.db.insert(chunks).values({ appId, urlId: page.id, position: 0, text });
}

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ admin, northfield: appId } = await demoCallers(host));
  const [site] = await host.deps.db
    .insert(websites)
    .values({ appId, url: SITE, siteMap: "few_urls", status: "sitemap_generated" })
    .returning();
  siteId = site.id;
  await addPage("/admissions", "Admissions", "Applications for fall close on January 15.");
  for (const env of ["stage", "prod"] as const)
    keys[env] = (
      await call("GET", `/v1/bot_installs?app_id=${appId}&env=${env}&app_name=admissions`, { token: admin })
    ).body.key;
});
afterAll(() => host?.close());

describe("an unanswered question asked of several agents or environments on one day", () => {
  it("names the agent of its latest ask, whichever row of the day the database reads first", async () => {
    expect((await ask("Where is the quantum teleportation lab?", { triggerPoint: "studentsuccess" })).outcome).toBe(
      "fallback",
    );
    expect((await ask("Where is the quantum teleportation lab?", { env: "prod" })).outcome).toBe("fallback");
    const today = new Date().toISOString().slice(0, 10);
    // Counted live, and rebuilt from the messages (which writes the day's rows in another order).
    for (const rebuilt of [false, true]) {
      if (rebuilt) await rebuildInsightDays(appId, [today], host.deps.db);
      expect(await gapOf("where is the quantum teleportation lab")).toMatchObject({
        unanswered: 2,
        trigger_point: "admissions",
      });
    }
    // Asked last of Student Success in staging, it names that agent.
    await ask("where is the quantum teleportation lab", { triggerPoint: "studentsuccess" });
    for (const rebuilt of [false, true]) {
      if (rebuilt) await rebuildInsightDays(appId, [today], host.deps.db);
      expect(await gapOf("where is the quantum teleportation lab")).toMatchObject({
        unanswered: 3,
        trigger_point: "studentsuccess",
        asked_as: "where is the quantum teleportation lab",
      });
    }
  });
});

describe("an unanswered question counted before the rollups kept which ask came last", () => {
  it("names one agent of the day's rows, whatever order the database holds them in", async () => {
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const question = "where is the planetarium";
    // Rows written before answer ids were kept: nothing says which of them was asked last.
    await host.deps.db.insert(insightQuestions).values(
      ["admissions", "studentsuccess"].map((triggerPoint) => ({
        appId,
        triggerPoint,
        environment: "stage",
        day,
        questionKey: question,
        asked: 1,
        unanswered: 1,
      })),
    );
    // A change writes the row anew, at the end of the table on PostgreSQL; with the table's
    // statistics up to date (autovacuum's analyse), it is read in that order.
    await host.deps.db
      .update(insightQuestions)
      .set({ wording: "Where is the planetarium?" })
      .where(and(eq(insightQuestions.questionKey, question), eq(insightQuestions.triggerPoint, "admissions")));
    await host.deps.db.execute(sql`analyze insight_questions`);
    expect(await gapOf(question)).toMatchObject({ unanswered: 2, trigger_point: "admissions" });
  });
});

describe("an unanswered question answered since", () => {
  const csvRowOf = async (question: string) => {
    const exported = await call("POST", `/v1/apps/${appId}/insights/export`, {
      token: admin,
      body: { chart: "unanswered_questions" },
    });
    expect(exported.status).toBe(200);
    const rows = (await downloadedText(host, exported.body.download_url)).split("\r\n");
    return rows.find((row) => row.startsWith(`${question},`));
  };

  it("says so once its latest ask is answered, counted live and rebuilt, and keeps the count of the asks before", async () => {
    const question = "When does the observatory open for visitors?";
    expect((await ask(question)).outcome).toBe("fallback");
    expect((await ask(question, { env: "prod" })).outcome).toBe("fallback");
    const today = new Date().toISOString().slice(0, 10);
    expect(await gapOf("when does the observatory open for visitors")).toMatchObject({
      unanswered: 2,
      answered_since: null,
    });

    await addPage(
      "/observatory",
      "Observatory",
      "The observatory opens for visitors every Friday evening from 8 pm, weather permitting.",
    );
    expect((await ask(question)).outcome).toBe("answered");
    for (const rebuilt of [false, true]) {
      if (rebuilt) await rebuildInsightDays(appId, [today], host.deps.db);
      expect(await gapOf("when does the observatory open for visitors")).toMatchObject({
        unanswered: 2,
        answered_since: today,
      });
    }
    expect(await csvRowOf(question)).toMatch(new RegExp(`,${today}$`));

    // Unanswered again (the page gone), the line goes: the latest ask is what it tells of.
    await host.deps.db.delete(urls).where(eq(urls.url, `${SITE}/observatory`));
    expect((await ask(question, { env: "prod" })).outcome).toBe("fallback");
    for (const rebuilt of [false, true]) {
      if (rebuilt) await rebuildInsightDays(appId, [today], host.deps.db);
      expect(await gapOf("when does the observatory open for visitors")).toMatchObject({
        unanswered: 3,
        answered_since: null,
      });
    }
    expect(await csvRowOf(question)).toMatch(/,$/);
  });
});
