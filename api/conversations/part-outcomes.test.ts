import { afterAll, beforeAll, expect, it } from "vitest";
import type { ConversationList, Insights } from "@contract";
import { chunks, urls, websites } from "../db/schema";
import { chatCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;
let key: string;
const SITE = "https://www.northfield.edu";

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ admin, northfield: appId } = await demoCallers(host));
  const [site] = await host.deps.db
    .insert(websites)
    .values({ appId, url: SITE, siteMap: "few_urls", status: "sitemap_generated" })
    .returning();
  for (const [path, title, text] of [
    ["/fees", "Application fee", "The application fee is $50 and is waived for veterans."],
    ["/tours", "Campus tours", "Campus tours leave the Welcome Center at 10am and 2pm on weekdays."],
  ]) {
    const [page] = await host.deps.db
      .insert(urls)
      .values({ appId, websiteId: site.id, url: `${SITE}${path}`, title, status: "indexed" })
      .returning();
    await host.deps.db.insert(chunks).values({ appId, urlId: page.id, position: 0, text });
  }
  key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin })).body
    .key;
});
afterAll(() => host?.close());

const list = async (query: string) => {
  const response = await call("GET", `/v1/apps/${appId}/conversations${query}`, { token: admin });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as ConversationList;
};

it("finds by the fallback outcome a message of several questions one of which went unanswered, as Insights' link asks", async () => {
  const message = "What is the application fee? When do campus tours leave? Is there a dress code for graduation?";
  const asked = await chatCall(host.api, { key, trigger_point: "admissions", message });
  expect(asked.outcome).toBe("answered");
  const whole = await chatCall(host.api, { key, trigger_point: "admissions", message: "When do campus tours leave?" });
  expect(whole.outcome).toBe("answered");

  const insights = (await call("GET", `/v1/apps/${appId}/insights`, { token: admin })).body as Insights;
  const gap = insights.unanswered_questions.find((q) => q.question === "is there a dress code for graduation")!;
  expect(gap).toMatchObject({ unanswered: 1 });

  // The dashboard's "Read the conversations": its words, its days, only those given the fallback.
  const params = new URLSearchParams({
    search: gap.asked_as,
    from: insights.range.from,
    to: insights.range.to,
    outcome: "fallback",
  });
  const found = await list(`?${params}`);
  expect(found.data.map((row) => row.id)).toEqual([asked.conversation]);
  // The list says the answer left a question unanswered beside the ones it answered.
  expect(found.data[0].outcomes).toMatchObject({ answered: 1, fallback: 1 });
  expect((await list("?outcome=fallback")).data.map((row) => row.id)).toEqual([asked.conversation]);
  // A conversation all of whose questions were answered is not among them.
  expect((await list("?outcome=answered")).total).toBe(2);
});
