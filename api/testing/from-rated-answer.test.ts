import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunks, urls, websites } from "../db/schema";
import { chatCall, feedbackCall, type ChatCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";

/*
 * A test question made from an answer visitors rated unhelpful must fail on that answer: prefilled
 * with the outcome it had and nothing else, it would pass on the very answer it was made to catch.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let clientAdmin: string;
let admin: string;
let appId: number;
let harborId: number;
let key: string;
const SITE = "https://www.northfield.edu";

async function addPage(appOf: number, siteId: number, path: string, text: string) {
  const [page] = await host.deps.db
    .insert(urls)
    .values({ appId: appOf, websiteId: siteId, url: `${SITE}${path}`, title: path.slice(1), status: "indexed" })
    .returning();
  await host.deps.db.insert(chunks).values({ appId: appOf, urlId: page.id, position: 0, text });
}

const rate = (answer: ChatCall, rating: "up" | "down") =>
  feedbackCall(host.api, { key, answer, rating }, "203.0.113.61");

const addQuestion = (body: Record<string, unknown>, app = appId) =>
  call("POST", `/v1/apps/${app}/test_questions`, {
    token: clientAdmin,
    body: { trigger_point: "admissions", expect_source: null, expect_text: null, ...body },
  });

let parking: ChatCall;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ admin, clientAdmin, northfield: appId, harbor: harborId } = await demoCallers(host));
  const [site] = await host.deps.db
    .insert(websites)
    .values({ appId, url: SITE, siteMap: "few_urls", status: "sitemap_generated" })
    .returning();
  await addPage(appId, site.id, "/visitors", "Visitors park in the west garage; parking permits cost $5 a day.");
  await addPage(appId, site.id, "/students", "Students with a permit park in lots C and D next to the stadium.");
  key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin })).body
    .key;
  parking = await chatCall(host.api, { key, trigger_point: "admissions", message: "Where do visitors park?" });
  expect(parking.outcome).toBe("answered");
  expect(parking.sources[0]?.url).toBe(`${SITE}/visitors`);
});
afterAll(() => host?.close());

describe("a test question made from an answer", () => {
  it("is added as prefilled while the answer was not rated unhelpful", async () => {
    const added = await addQuestion({
      question: "Where do visitors park?",
      expect_outcome: "answered",
      from_answer: parking.answer,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  });

  it("is refused, beside the expected source, when it would pass on the answer rated unhelpful", async () => {
    expect((await rate(parking, "down")).status).toBe(200);
    const message =
      "The answer rated unhelpful would pass this test: choose the source a right answer cites, or type a text it must contain";
    for (const expected of [
      { expect_outcome: "answered" },
      { expect_outcome: "answered", expect_source: `${SITE}/visitors/` },
      { expect_text: "WEST garage" },
    ]) {
      const refused = await addQuestion({
        question: "Where can visitors park?",
        from_answer: parking.answer,
        ...expected,
      });
      expect(refused.status, JSON.stringify(expected)).toBe(400);
      expect(refused.body).toMatchObject({ message, errors: { expect_source: [message] } });
    }
  });

  it("is added once it says what a right answer does that the rated one did not", async () => {
    for (const [question, expected] of [
      ["Where can visitors park on campus?", { expect_outcome: "answered", expect_source: `${SITE}/students` }],
      ["Where can visitors park today?", { expect_text: "lot C" }],
    ] as const) {
      const added = await addQuestion({ question, from_answer: parking.answer, ...expected });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
  });

  it("is not found for another client's answer, a question's message or one that never was, as alike", async () => {
    const question = await host.deps.db.query.messages.findFirst({
      where: (m, { and, eq }) => and(eq(m.conversationId, parking.conversation), eq(m.role, "user")),
    });
    for (const [from, app] of [
      [parking.answer, harborId],
      [question!.id, appId],
      [2_000_000_000, appId],
    ] as const) {
      const refused = await call("POST", `/v1/apps/${app}/test_questions`, {
        token: admin,
        body: { trigger_point: "", question: "Where do visitors park?", expect_outcome: "answered", from_answer: from },
      });
      expect(refused.status, `${from} of ${app}`).toBe(404);
      expect(refused.body.message).toBe("This answer is not in the client's conversations");
    }
  });
});
