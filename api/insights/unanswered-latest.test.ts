import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Insights } from "@contract";
import { chunks, urls, websites } from "../db/schema";
import { rebuildInsightDays } from "./rollups";
import { chatCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";

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
