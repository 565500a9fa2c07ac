import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationDetail, ConversationList } from "@contract";
import { rowsOf } from "../db/rows";
import { chunks, urls, websites } from "../db/schema";
import { chatCall, feedbackCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { qualityCheckControl, topicControl } from "../../tests/support/controls";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let clientAdmin: string;
let clientUser: string;
let appId: number;
let harbor: number;
const keys: Record<string, string> = {};
const SITE = "https://www.northfield.edu";

/** Asks like the widget does; answers the conversation, the answer's message id and outcome. */
async function ask(
  message: string,
  options: { env?: "stage" | "prod"; triggerPoint?: string; conversation?: string } = {},
) {
  const asked = await chatCall(host.api, {
    key: keys[options.env ?? "stage"],
    trigger_point: options.triggerPoint ?? "admissions",
    message,
    conversation_id: options.conversation,
  });
  return { conversation: asked.conversation, message: asked.answer, outcome: asked.outcome };
}

/** A visitor's thumbs, through the widget's feedback call. */
async function rate(conversation: string, message: number, rating: "up" | "down", env: "stage" | "prod" = "stage") {
  const comment = rating === "down" ? "Wrong date" : undefined;
  const response = await feedbackCall(host.api, {
    key: keys[env],
    answer: { conversation, answer: message },
    rating,
    comment,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

const list = async (query = "", token = clientUser) => {
  const response = await call("GET", `/v1/apps/${appId}/conversations${query}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as ConversationList;
};
const detail = async (id: string, token = clientUser) => {
  const response = await call("GET", `/v1/apps/${appId}/conversations/${id}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as ConversationDetail;
};

/*
 * Four conversations with known outcomes:
 * A (admissions, stage): answered (a page lowered by a finetuning rule), disclaimed (sensitive topic), then the visitor's email: a lead
 * B (admissions, stage): canned (no-go)
 * C (studentsuccess, stage): fallback
 * D (admissions, prod): answered
 */
let a: { conversation: string; message: number };
let aSensitive: number;
let b: { conversation: string; message: number };
let c: { conversation: string; message: number };
let d: { conversation: string; message: number };

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ admin, clientAdmin, clientUser, northfield: appId, harbor } = await demoCallers(host));
  const db = host.deps.db;
  const [site] = await db
    .insert(websites)
    .values({ appId, url: SITE, siteMap: "few_urls", status: "sitemap_generated" })
    .returning();
  for (const [path, title, text] of [
    ["/admissions", "Admissions", "Applications for fall close on January 15."],
    ["/archive/admissions", "Admissions 2019", "Applications for fall closed on March 1 in 2019."],
    ["/tuition", "Tuition", "Tuition is $12,400 per semester for every program."],
  ]) {
    const [page] = await db
      .insert(urls)
      .values({
        appId,
        websiteId: site.id,
        url: `${SITE}${path}`,
        title,
        status: "indexed",
        indexedAt: new Date("2026-03-02T10:00:00Z"),
      })
      .returning();
    await db.insert(chunks).values({ appId, urlId: page.id, position: 0, text, headingPath: [title, "Dates"] });
  }
  await call("PUT", "/v1/controls", {
    token: admin,
    body: {
      app_id: appId,
      controls: [
        topicControl("no_go_topics", "legal advice", "I can't give legal advice."),
        topicControl("sensitive_topics", "tuition", "Tuition changes every year."),
      ],
    },
  });
  const saved = await call("POST", "/v1/controls/upsert_finetunings", {
    token: admin,
    body: {
      app_id: appId,
      finetunings: [{ trigger_point: "", finetuning_type: "url_pattern", pattern: `${SITE}/archive/*`, penalty: 0.5 }],
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  await call("POST", `/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
    token: admin,
    body: {
      personalisation_config_details: [
        { name: "email", field_type: "text", group: "Personal Contact Information", model_type: "user_profile" },
      ],
    },
  });
  for (const env of ["stage", "prod"] as const)
    keys[env] = (
      await call("GET", `/v1/bot_installs?app_id=${appId}&env=${env}&app_name=admissions`, { token: admin })
    ).body.key;

  a = await ask("When do applications for fall close?");
  aSensitive = (await ask("What is the tuition per semester?", { conversation: a.conversation })).message;
  await ask("My email is dana.q@example.com", { conversation: a.conversation });
  b = await ask("Can you give me legal advice?");
  c = await ask("Where is the quantum teleportation lab?", { triggerPoint: "studentsuccess" });
  d = await ask("When do applications for fall close?", { env: "prod" });
});
afterAll(() => host?.close());

describe("the conversations list", () => {
  it("lists every conversation latest first, with its questions, last question, outcomes, rating and lead", async () => {
    const all = await list();
    expect(all.total).toBe(4);
    expect(all.data.map((row) => row.id)).toEqual([d.conversation, c.conversation, b.conversation, a.conversation]);
    const first = all.data.find((row) => row.id === a.conversation)!;
    expect(first).toMatchObject({
      environment: "stage",
      trigger_point: "admissions",
      // The message giving only an email is small talk: no question, nor the last one.
      questions: 2,
      last_question: "What is the tuition per semester?",
      outcomes: { answered: 1, disclaimed: 1, fallback: 0, canned: 0, small_talk: 1 },
      rating: null,
      lead: true,
      reviewed: false,
    });
    expect(all.data.find((row) => row.id === b.conversation)).toMatchObject({
      outcomes: { canned: 1, answered: 0, fallback: 0, disclaimed: 0, small_talk: 0 },
      lead: false,
    });
  });

  it("filters by trigger point, environment, outcome, lead, dates and words, and sorts and pages", async () => {
    const ids = async (query: string) => (await list(query)).data.map((row) => row.id);
    expect(await ids("?trigger_point=studentsuccess")).toEqual([c.conversation]);
    expect(await ids("?environment=prod")).toEqual([d.conversation]);
    expect(await ids("?outcome=canned")).toEqual([b.conversation]);
    expect(await ids("?outcome=fallback")).toEqual([c.conversation]);
    expect(await ids("?outcome=small_talk&trigger_point=admissions")).toEqual([a.conversation]);
    expect(await ids("?lead=true")).toEqual([a.conversation]);
    expect((await list("?lead=false")).total).toBe(3);
    expect(await ids("?search=TELEPORTATION")).toEqual([c.conversation]);
    expect(await ids("?search=100%25")).toEqual([]);
    // Words as they begin: part of a word, part of an address; quotes and backslashes are words' letters, never syntax.
    expect(await ids("?search=teleport")).toEqual([c.conversation]);
    // A word of one or two letters is matched whole, not as the beginning of every word it starts.
    expect(await ids("?search=te")).toEqual([]);
    expect(await ids("?search=dana.q")).toEqual([a.conversation]);
    expect(await ids(`?search=${encodeURIComponent("quantum lab")}`)).toEqual([c.conversation]);
    for (const odd of ["it's", "a\\b", "'&|!:*", "(", "''"])
      expect(await ids(`?search=${encodeURIComponent(odd)}`)).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`?from=${today}&to=${today}`)).total).toBe(4);
    expect((await list("?to=2020-01-01")).total).toBe(0);
    expect((await ids("?sort=oldest"))[0]).toBe(a.conversation);
    expect((await ids("?sort=most_questions"))[0]).toBe(a.conversation);
    const second = await list("?page_size=10&page=2");
    expect(second).toEqual({ data: [], total: 4, total_is_capped: false, next_after: null });
    // A blank choice of a filter form is no filter.
    expect((await list("?environment=&outcome=&rating=&lead=&reviewed=&search=&sort=")).total).toBe(4);
  });

  it("filters on the visitors' ratings and on review", async () => {
    await rate(a.conversation, a.message, "up");
    await rate(d.conversation, d.message, "down", "prod");
    const ids = async (query: string) => (await list(query)).data.map((row) => row.id);
    expect(await ids("?rating=up")).toEqual([a.conversation]);
    expect(await ids("?rating=down")).toEqual([d.conversation]);
    expect((await list("?rating=unrated")).total).toBe(2);
    expect(await ids("?rating=down&reviewed=false")).toEqual([d.conversation]);
    // Why it is not reviewed: the answer rated unhelpful that waits.
    expect((await list("?rating=down")).data[0]).toMatchObject({ reviewed: false, awaiting_review: 1 });

    const reviewed = await call(
      "POST",
      `/v1/apps/${appId}/conversations/${d.conversation}/messages/${d.message}/review`,
      { token: clientAdmin, body: { reviewed: true } },
    );
    expect(reviewed).toEqual({ status: 200, body: { message: "Marked reviewed", reviewed: true } });
    expect(await ids("?rating=down&reviewed=false")).toEqual([]);
    expect(await ids("?reviewed=true")).toEqual([d.conversation]);
    expect((await list("?reviewed=true")).data[0]).toMatchObject({ reviewed: true, awaiting_review: 0 });
    expect((await detail(d.conversation)).messages.find((m) => m.id === d.message)).toMatchObject({
      rating: "down",
      comment: "Wrong date",
      reviewed: true,
    });
    // A visitor's second thumbs down on an answer already reviewed does not put it back in the queue by itself.
    await rate(a.conversation, aSensitive, "down");
    expect((await list("?rating=down&reviewed=false")).data.map((row) => row.id)).toEqual([a.conversation]);
    expect((await list()).data.find((row) => row.id === a.conversation)!.rating).toBe("mixed");

    const undone = await call(
      "POST",
      `/v1/apps/${appId}/conversations/${d.conversation}/messages/${d.message}/review`,
      { token: clientAdmin, body: { reviewed: false } },
    );
    expect(undone.body).toEqual({ message: "Marked not reviewed", reviewed: false });
    expect(await ids("?reviewed=false&rating=down")).toEqual([d.conversation, a.conversation]);
  });

  it("counts up to 10,000 (a search up to 1,000) and says when there are more", async () => {
    await host.deps.db.execute(sql`
      insert into conversations (id, app_id, environment, trigger_point, question_count)
      select gen_random_uuid(), ${harbor}, 'prod', '', 1 from generate_series(1, 10001)`);
    const many = await call("GET", `/v1/apps/${harbor}/conversations?page_size=10`, { token: admin });
    expect(many.body.total).toBe(10_000);
    expect(many.body.total_is_capped).toBe(true);
    expect(many.body.data).toHaveLength(10);
    const last = await call("GET", `/v1/apps/${harbor}/conversations?page_size=1000&page=11`, { token: admin });
    expect(last.body.data).toHaveLength(1);
    // A search's matches are counted up to 1,000.
    await host.deps.db.execute(sql`
      insert into messages (conversation_id, app_id, role, text)
      select id, app_id, 'user', 'Do you rent kayaks?' from conversations where app_id = ${harbor} limit 1001`);
    const searched = await call("GET", `/v1/apps/${harbor}/conversations?search=kayaks&page_size=10`, { token: admin });
    expect(searched.body).toMatchObject({ total: 1000, total_is_capped: true });
  });

  it("refuses filters out of range with a message for the field", async () => {
    const refused = async (query: string, field: string) => {
      const response = await call("GET", `/v1/apps/${appId}/conversations${query}`, { token: clientUser });
      expect(response.status).toBe(400);
      expect(response.body.errors[field]?.[0], query).toBeTruthy();
      return response.body.errors[field][0] as string;
    };
    expect(await refused("?from=2026-05-02&to=2026-05-01", "from")).toBe(
      "The start date must be on or before the end date",
    );
    expect(await refused("?from=yesterday", "from")).toBe("Dates are YYYY-MM-DD");
    // JavaScript reads year 0 as a date; PostgreSQL has no year 0.
    expect(await refused("?from=0000-01-01", "from")).toBe("Not a date");
    expect(await refused("?to=0000-12-31", "to")).toBe("Not a date");
    expect(await refused("?outcome=lost", "outcome")).toMatch(/^outcome must be one of/);
    expect(await refused("?rating=5", "rating")).toBe("rating must be up, down or unrated");
    expect(await refused("?page_size=7", "page_size")).toMatch(/^page_size must be/);
    expect(await refused("?page=0", "page")).toBeTruthy();
    expect(await refused(`?search=${"x".repeat(201)}`, "search")).toBe("Search for at most 200 characters");
    expect(await refused("?sort=random", "sort")).toMatch(/^sort must be one of/);
    // A cursor of year 0, which JavaScript reads and PostgreSQL's calendar lacks, is a malformed cursor.
    const yearZero = Buffer.from(
      JSON.stringify(["latest", "0000-01-01T00:00:00.000000Z", "00000000-0000-0000-0000-000000000000"]),
    ).toString("base64url");
    expect(await refused(`?after=${yearZero}`, "after")).toBeTruthy();
  });
});

describe("a conversation's transcript", () => {
  it("holds every message with its time, and each answer its question, sources and the trace recorded when it was given", async () => {
    const transcript = await detail(a.conversation);
    expect(transcript).toMatchObject({
      id: a.conversation,
      environment: "stage",
      trigger_point: "admissions",
      // Three messages, of which one small talk: two questions, as the list counts them.
      questions: 2,
      lead: true,
    });
    expect(transcript.messages.map((m) => [m.role, m.outcome])).toEqual([
      ["user", null],
      ["assistant", "answered"],
      ["user", null],
      ["assistant", "disclaimed"],
      ["user", null],
      ["assistant", "small_talk"],
    ]);
    const answer = transcript.messages[1];
    expect(answer.question).toBe("When do applications for fall close?");
    expect(answer.sources[0].url).toBe(`${SITE}/admissions`);
    expect(Date.parse(answer.at)).not.toBeNaN();
    const trace = answer.trace!;
    expect(trace.threshold).toBe(0.04);
    // The chance the quality check estimated, and compared with the threshold to answer.
    expect(trace.confidence).toBeGreaterThanOrEqual(trace.threshold);
    expect(trace.confidence).toBeLessThan(1);
    expect(trace.model).toBe(false);
    expect(trace.controls).toEqual([]);
    const [top] = trace.passages;
    expect(top).toMatchObject({
      url: `${SITE}/admissions`,
      file_name: null,
      title: "Admissions",
      heading_path: ["Admissions", "Dates"],
      indexed_at: "2026-03-02T10:00:00.000Z",
      rank: 1,
      passed: true,
      used: true,
      listed: true,
      penalties: [],
      text: "Applications for fall close on January 15.",
    });
    expect(top.score).toBe(trace.top_score);
    // The archived page was lowered by the finetuning rule, and the trace says by which.
    const archived = trace.passages.find((p) => p.url === `${SITE}/archive/admissions`)!;
    expect(archived.penalties).toEqual([{ type: "url_pattern", pattern: `${SITE}/archive/*`, penalty: 0.5 }]);
    expect(archived.score).toBeLessThan(top.score);
    // Listed beside the quoted page as a source, the answer quotes none of it.
    expect(archived.listed).toBe(answer.sources.some((source) => source.url === archived.url));
    expect(archived.used).toBe(false);
    expect(trace.passages.map((p) => p.rank)).toEqual(trace.passages.map((_, index) => index + 1));
    // A topic of Default's list asked of an agent says where it is set.
    expect(transcript.messages[3].trace!.controls).toEqual([
      { type: "sensitive_topic", name: "tuition", from_default: true },
    ]);
    // A message giving only an email is small talk: nothing was searched, and the trace says what it was read as.
    expect(transcript.messages[5].trace).toMatchObject({ small_talk: "introduction", passages: [] });
  });

  it("records the no-go topic that gave a canned response, and the passages a fallback found below the threshold", async () => {
    const canned = (await detail(b.conversation)).messages[1];
    expect(canned.trace).toMatchObject({
      controls: [{ type: "no_go_topic", name: "legal advice" }],
      passages: [],
      top_score: 0,
    });
    const fallback = (await detail(c.conversation)).messages[1];
    expect(fallback.outcome).toBe("fallback");
    expect(fallback.trace!.confidence).toBeLessThan(fallback.trace!.threshold);
    expect(fallback.trace!.passages.every((p) => !p.passed && !p.used)).toBe(true);
  });

  it("shows what was recorded, not what the settings say now", async () => {
    const before = (await detail(d.conversation)).messages[1].trace;
    await call("PUT", "/v1/controls", {
      token: admin,
      body: {
        app_id: appId,
        controls: [qualityCheckControl(0.9)],
      },
    });
    expect((await detail(d.conversation)).messages[1].trace).toEqual(before);
    expect(before!.threshold).toBe(0.04);
  });

  it("keeps each trace bounded: at most 10 passages of 300 characters", async () => {
    const db = host.deps.db;
    const [site] = await db
      .select()
      .from(websites)
      .where(sql`app_id = ${appId}`);
    for (let i = 0; i < 14; i += 1) {
      const [page] = await db
        .insert(urls)
        .values({ appId, websiteId: site.id, url: `${SITE}/clubs/${i}`, title: `Club ${i}`, status: "indexed" })
        .returning();
      await db.insert(chunks).values({
        appId,
        urlId: page.id,
        position: 0,
        text: `The chess club ${i} meets on Fridays in the library. ${"Members play rated games. ".repeat(30)}`,
      });
    }
    const asked = await ask("When does the chess club meet?");
    const trace = (await detail(asked.conversation)).messages[1].trace!;
    expect(trace.passages.length).toBe(10);
    expect(Math.max(...trace.passages.map((p) => p.text.length))).toBe(300);
  });
});

describe("who may read and review", () => {
  it("lets a read-only user read everything and change nothing", async () => {
    expect((await list("", clientUser)).total).toBeGreaterThan(0);
    const refused = await call(
      "POST",
      `/v1/apps/${appId}/conversations/${a.conversation}/messages/${a.message}/review`,
      { token: clientUser, body: { reviewed: true } },
    );
    expect(refused.status).toBe(403);
  });

  it("never reaches another client's conversations, and answers their ids as unknown ones", async () => {
    expect((await call("GET", `/v1/apps/${harbor}/conversations`, { token: clientAdmin })).status).toBe(404);
    const unknown = await call("GET", `/v1/apps/${appId}/conversations/00000000-0000-4000-8000-000000000000`, {
      token: admin,
    });
    // Northfield's conversation asked for through Harbor's path: the same answer as an unknown id.
    const elsewhere = await call("GET", `/v1/apps/${harbor}/conversations/${a.conversation}`, { token: admin });
    expect(elsewhere).toEqual(unknown);
    expect(unknown).toEqual({ status: 404, body: { message: "Conversation not found" } });
    const reviewElsewhere = await call(
      "POST",
      `/v1/apps/${harbor}/conversations/${a.conversation}/messages/${a.message}/review`,
      { token: admin, body: { reviewed: true } },
    );
    expect(reviewElsewhere).toEqual({ status: 404, body: { message: "Message not found in this conversation" } });
    // Another conversation's message through this one's path.
    const otherMessage = await call(
      "POST",
      `/v1/apps/${appId}/conversations/${b.conversation}/messages/${a.message}/review`,
      { token: admin, body: { reviewed: true } },
    );
    expect(otherMessage).toEqual(reviewElsewhere);
  });

  it("refuses to review a question, a malformed id or body with a message", async () => {
    const question = a.message - 1;
    const refused = await call(
      "POST",
      `/v1/apps/${appId}/conversations/${a.conversation}/messages/${question}/review`,
      { token: admin, body: { reviewed: true } },
    );
    expect(refused).toEqual({ status: 400, body: { message: "Only answers can be reviewed" } });
    expect((await call("GET", `/v1/apps/${appId}/conversations/not-a-uuid`, { token: admin })).status).toBe(400);
    const badBody = await call(
      "POST",
      `/v1/apps/${appId}/conversations/${a.conversation}/messages/${a.message}/review`,
      { token: admin, body: { reviewed: "yes" } },
    );
    expect(badBody.status).toBe(400);
    expect(badBody.body.errors.reviewed[0]).toBe("reviewed must be true or false");
  });
});

describe("deleting a visitor's profile", () => {
  it("deletes their conversations, messages, traces and ratings", async () => {
    const deleted = await call("DELETE", `/v1/apps/${appId}/user_profiles/${a.conversation}`, { token: clientAdmin });
    expect(deleted.status).toBe(200);
    expect((await call("GET", `/v1/apps/${appId}/conversations/${a.conversation}`, { token: admin })).status).toBe(404);
    const [left] = rowsOf<{ n: number }>(
      await host.deps.db.execute(
        sql`select count(*)::int as n from messages where conversation_id = ${a.conversation}::uuid`,
      ),
    );
    expect(left.n).toBe(0);
    expect((await list()).data.some((row) => row.id === a.conversation)).toBe(false);
  });
});

describe("searching conversations in scripts written without spaces", () => {
  it("finds a word inside a Japanese or Chinese sentence, and a Korean word with its particle", async () => {
    const japanese = await ask("大学の授業料はいくらですか");
    const korean = await ask("대학의 기숙사는 어디에 있나요?");
    const ids = async (search: string) =>
      (await list(`?search=${encodeURIComponent(search)}`)).data.map((row) => row.id);
    expect(await ids("授業料")).toEqual([japanese.conversation]);
    expect(await ids("大学")).toEqual([japanese.conversation]);
    expect(await ids("대학")).toEqual([korean.conversation]);
    expect(await ids("学费")).toEqual([]);
    // A search's % and _ are letters, not patterns.
    expect(await ids("授業%")).toEqual([]);
  });
});
