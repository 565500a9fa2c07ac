import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Insights, UserProfilesList } from "@contract";
import { chunks, conversations, messages, urls, visitorProfiles, websites } from "../db/schema";
import { chatCall, feedbackCall } from "../../tests/support/chat-call";
import { apiCaller, demoCallers, downloadedText, startTestHost } from "../../tests/support/test-host";
import { insightRange, readInsights } from "./queries";
import { rebuildInsightDays } from "./rollups";
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

/** Asks like the widget does; answers the outcome, the conversation and the answer's message id. */
const ask = (message: string, options: { env?: "stage" | "prod"; triggerPoint?: string; conversation?: string } = {}) =>
  chatCall(host.api, {
    key: keys[options.env ?? "stage"],
    trigger_point: options.triggerPoint ?? "admissions",
    message,
    conversation_id: options.conversation,
  });

/*
 * A small knowledge store and eleven messages in six conversations with known outcomes:
 * admissions/stage A: answered, disclaimed (sensitive), fallback (the visitor's details and major)
 * admissions/stage B: canned (no-go), answered (the same question as A's first)
 * studentsuccess/stage C and D: the same unanswerable question, fallback twice
 * admissions/prod E: answered, small talk (a second person's email alone)
 * studentsuccess/stage F: small talk (the first visitor again, by email alone)
 */
const outcomes: string[] = [];
let dana: string;
let other: string;
/** Answers visitors will rate: A's first, B's first (canned), C's (studentsuccess), E's first (prod), A's second. */
const rated = {} as Record<"a" | "b" | "c" | "e" | "aSecond", { conversation: string; answer: number }>;

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
    ["/tuition", "Tuition", "Tuition is $12,400 per semester for every program."],
  ]) {
    const [page] = await db
      .insert(urls)
      .values({ appId, websiteId: site.id, url: `${SITE}${path}`, title, status: "indexed" })
      .returning();
    await db.insert(chunks).values({ appId, urlId: page.id, position: 0, text });
  }
  await call("POST", `/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
    token: admin,
    body: {
      personalisation_config_details: [
        { name: "name", field_type: "text", group: "Personal Contact Information", model_type: "user_profile" },
        { name: "email", field_type: "text", group: "Personal Contact Information", model_type: "user_profile" },
        { name: "intended_major", field_type: "text", group: "Learning Interests", model_type: "user_profile" },
      ],
    },
  });
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
  for (const env of ["stage", "prod"] as const)
    keys[env] = (
      await call("GET", `/v1/bot_installs?app_id=${appId}&env=${env}&app_name=admissions`, { token: admin })
    ).body.key;

  const a = await ask("When do applications close?");
  const aSecond = await ask("What is the tuition per semester?", { conversation: a.conversation });
  outcomes.push(a.outcome, aSecond.outcome);
  outcomes.push(
    (
      await ask("My name is Dana Quillfeather and my email is dana.q@example.com; my intended major is zoology", {
        conversation: a.conversation,
      })
    ).outcome,
  );
  dana = a.conversation;
  const b = await ask("Can you give me legal advice?");
  Object.assign(rated, { a, aSecond, b });
  outcomes.push(b.outcome, (await ask("When do applications close", { conversation: b.conversation })).outcome);
  const c = await ask("Where is the quantum teleportation lab?", { triggerPoint: "studentsuccess" });
  rated.c = c;
  outcomes.push(c.outcome);
  outcomes.push((await ask("where is the  quantum teleportation lab", { triggerPoint: "studentsuccess" })).outcome);
  const e = await ask("When do applications close?", { env: "prod" });
  rated.e = e;
  outcomes.push(
    e.outcome,
    (await ask("My email is sam.other@example.com", { env: "prod", conversation: e.conversation })).outcome,
  );
  other = e.conversation;
  outcomes.push((await ask("Hello again, my email is DANA.Q@example.com", { triggerPoint: "studentsuccess" })).outcome);
});
afterAll(() => host?.close());

const today = new Date().toISOString().slice(0, 10);
const insights = async (query = "", token = clientUser) => {
  const response = await call("GET", `/v1/apps/${appId}/insights${query}`, { token });
  expect(response.status).toBe(200);
  return response.body as Insights;
};

describe("the dashboard's figures", () => {
  it("counts conversations, questions and outcomes per day from the rollups", async () => {
    expect(outcomes).toEqual([
      "answered",
      "disclaimed",
      "fallback",
      "canned",
      "answered",
      "fallback",
      "fallback",
      "answered",
      // A message giving only an email asks nothing: small talk, not a question.
      "small_talk",
      "small_talk",
    ]);
    const all = await insights();
    expect(all.range.to).toBe(today);
    expect(all.days).toHaveLength(30);
    expect(all.totals).toEqual({
      conversations: 6,
      questions: 8,
      answered: 3,
      fallback: 3,
      canned: 1,
      disclaimed: 1,
      small_talk: 2,
      leads: 3,
    });
    expect(all.days.at(-1)).toEqual({
      day: today,
      conversations: 6,
      questions: 8,
      answered: 3,
      fallback: 3,
      canned: 1,
      disclaimed: 1,
      small_talk: 2,
      leads: 3,
    });
    expect(all.days.slice(0, -1).every((d) => d.questions === 0)).toBe(true);

    const prod = await insights("?environment=prod");
    expect(prod.totals).toMatchObject({ conversations: 1, questions: 1, answered: 1, fallback: 0, small_talk: 1 });
    // The month rollup counted the same questions as the daily one.
    const [sums] = (
      (await host.deps.db.execute(sql`
      select (select sum(asked) from insight_questions)::int as days, (select sum(asked) from insight_question_months)::int as months`)) as unknown as {
        rows: { days: number; months: number }[];
      }
    ).rows;
    expect(sums).toEqual({ days: 8, months: 8 });
    const studentSuccess = await insights("?trigger_point=studentsuccess");
    expect(studentSuccess.totals).toMatchObject({
      conversations: 3,
      questions: 2,
      fallback: 2,
      answered: 0,
      small_talk: 1,
    });
  });

  it("lists top and unanswered questions (repeats counted together), cited sources and leads", async () => {
    const all = await insights();
    // Each shown as its latest ask in the range was worded.
    expect(all.top_questions.slice(0, 2)).toEqual([
      { question: "when do applications close", asked_as: "When do applications close?", asked: 3, unanswered: 0 },
      {
        question: "where is the quantum teleportation lab",
        asked_as: "where is the  quantum teleportation lab",
        asked: 2,
        unanswered: 2,
      },
    ]);
    expect((await insights("?environment=stage")).top_questions[0]).toMatchObject({
      question: "when do applications close",
      asked_as: "When do applications close",
      asked: 2,
    });
    const lab = all.unanswered_questions.find((q) => q.question === "where is the quantum teleportation lab")!;
    expect(lab.unanswered).toBe(2);
    expect(all.top_sources).toEqual([
      { url: `${SITE}/admissions`, title: "Admissions", cited: 3 },
      { url: `${SITE}/tuition`, title: "Tuition", cited: 1 },
    ]);
    expect(all.leads.captured).toBe(3);
    const first = all.leads.top.find((l) => l.conversation_id === dana)!;
    // email 30 + name 10 + one other field 8 + three questions 6.
    expect(first).toMatchObject({
      name: "Dana Quillfeather",
      contact: "dana.q@example.com",
      score: 54,
      reasons: ["email +30", "name +10", "1 other field +8", "3 questions +6"],
    });
    // The two who gave only an email: 30, and 2 for each question (small talk is none).
    expect(all.leads.average_score).toBe(Math.round(((54 + 32 + 30) / 3) * 10) / 10);
    expect(all.lead_score_rule).toMatch(/^Email \+30/);
  });

  it("refuses reversed and over-long ranges; other clients' figures are not found", async () => {
    expect(
      (await call("GET", `/v1/apps/${appId}/insights?from=2026-05-02&to=2026-05-01`, { token: clientUser })).status,
    ).toBe(400);
    expect(
      (await call("GET", `/v1/apps/${appId}/insights?from=2024-01-01&to=2026-01-01`, { token: clientUser })).body.errors
        .from[0],
    ).toBe("Choose at most 366 days");
    expect((await call("GET", `/v1/apps/${appId}/insights?from=yesterday`, { token: clientUser })).status).toBe(400);
    // A day JavaScript would read as March 2 is refused before it reaches the database.
    const impossible = await call("GET", `/v1/apps/${appId}/insights?from=2026-02-01&to=2026-02-30`, {
      token: clientUser,
    });
    expect(impossible).toMatchObject({ status: 400, body: { errors: { to: ["Not a date"] } } });
    // The calendar's ends: the last days of year 9999, and a default range that would start before year 1.
    const lastDays = await call("GET", `/v1/apps/${appId}/insights?from=9999-12-02&to=9999-12-31`, {
      token: clientUser,
    });
    expect(lastDays).toMatchObject({ status: 200, body: { totals: { questions: 0 } } });
    expect(lastDays.body.days).toHaveLength(30);
    const firstDays = await call("GET", `/v1/apps/${appId}/insights?to=0001-01-05`, { token: clientUser });
    expect(firstDays.status).toBe(200);
    expect(firstDays.body.days.map((d: { day: string }) => d.day)).toEqual([
      "0001-01-01",
      "0001-01-02",
      "0001-01-03",
      "0001-01-04",
      "0001-01-05",
    ]);
    expect((await call("GET", `/v1/apps/${harbor}/insights`, { token: clientAdmin })).status).toBe(404);
    const empty = await call("GET", `/v1/apps/${harbor}/insights`, { token: admin });
    expect(empty.body.totals.questions).toBe(0);
  });

  it("writes a chart's CSV into Admin Downloads; a read-only Client writes nothing", async () => {
    const refused = await call("POST", `/v1/apps/${appId}/insights/export`, {
      token: clientUser,
      body: { chart: "top_questions" },
    });
    expect(refused.status).toBe(403);
    expect(
      (await call("GET", `/v1/admin_downloads/latest_files?app_id=${appId}`, { token: clientUser })).body.files
        .insights_top_questions,
    ).toBeUndefined();
    expect(
      (await call("POST", "/v1/apps/999/insights/export", { token: admin, body: { chart: "top_questions" } })).status,
    ).toBe(404);
    const exported = await call("POST", `/v1/apps/${appId}/insights/export`, {
      token: clientAdmin,
      body: { chart: "top_questions" },
    });
    expect(exported.status).toBe(200);
    const latest = await call("GET", `/v1/admin_downloads/latest_files?app_id=${appId}`, { token: clientUser });
    expect(latest.body.files.insights_top_questions.filename).toBe(exported.body.file_name);
    const text = await downloadedText(host, exported.body.download_url);
    expect(text.split("\r\n").slice(0, 3)).toEqual([
      "Question,Asked,Unanswered",
      "When do applications close?,3,0",
      "where is the  quantum teleportation lab,2,2",
    ]);
  });
});

describe("answers rated unhelpful", () => {
  const rate = async (
    env: "stage" | "prod",
    which: { conversation: string; answer: number },
    rating: "up" | "down",
    comment?: string,
  ) => {
    const response = await feedbackCall(host.api, { key: keys[env], answer: which, rating, comment });
    expect(response.status).toBe(200);
  };
  const answerText = async (id: number) =>
    (await host.deps.db.select().from(messages).where(eq(messages.id, id)))[0].text;

  it("counts the answers rated down in the range, trigger point and environment, and lists them latest first with their questions", async () => {
    await rate("stage", rated.a, "down", "Which year?");
    await rate("stage", rated.aSecond, "up");
    await rate("stage", rated.b, "down");
    await rate("prod", rated.e, "down", "That date has passed");
    await rate("stage", rated.c, "down");

    const all = await insights();
    expect(all.unhelpful.total).toBe(4);
    expect(all.unhelpful.answers.map((a) => a.message_id)).toEqual([
      rated.c.answer,
      rated.e.answer,
      rated.b.answer,
      rated.a.answer,
    ]);
    expect(all.unhelpful.answers[1]).toEqual({
      conversation_id: rated.e.conversation,
      message_id: rated.e.answer,
      question: "When do applications close?",
      answer: await answerText(rated.e.answer),
      comment: "That date has passed",
      rated_at: expect.stringMatching(new RegExp(`^${today}T`)),
      reviewed: false,
      trigger_point: "admissions",
    });
    expect(all.unhelpful.answers[3]).toMatchObject({
      question: "When do applications close?",
      comment: "Which year?",
      conversation_id: dana,
    });
    expect(all.unhelpful.answers[2]).toMatchObject({
      question: "Can you give me legal advice?",
      answer: "I can't give legal advice.",
      comment: null,
    });

    const prod = await insights("?environment=prod");
    expect(prod.unhelpful).toMatchObject({ total: 1, answers: [{ message_id: rated.e.answer }] });
    const studentSuccess = await insights("?trigger_point=studentsuccess");
    expect(studentSuccess.unhelpful).toMatchObject({
      total: 1,
      answers: [{ message_id: rated.c.answer, trigger_point: "studentsuccess" }],
    });
    // Rated today: a range that ends yesterday holds none.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await insights(`?to=${yesterday}`)).unhelpful).toEqual({ total: 0, answers: [] });
    // Another client's dashboard holds none of them.
    expect((await call("GET", `/v1/apps/${harbor}/insights`, { token: admin })).body.unhelpful).toEqual({
      total: 0,
      answers: [],
    });
  });

  it("drops an answer rated up again; the list is capped, the count is not", async () => {
    await rate("stage", rated.b, "up");
    const all = await insights();
    expect(all.unhelpful.total).toBe(3);
    expect(all.unhelpful.answers.map((a) => a.message_id)).toEqual([rated.c.answer, rated.e.answer, rated.a.answer]);
    const capped = await readInsights({ appId, ...insightRange({}), environment: "all" }, host.deps, {
      questions: 10,
      sources: 10,
      leads: 10,
      unhelpful: 2,
      gapPages: false,
    });
    expect(capped.unhelpful.total).toBe(3);
    expect(capped.unhelpful.answers.map((a) => a.message_id)).toEqual([rated.c.answer, rated.e.answer]);
  });

  it("writes them as a CSV into Admin Downloads", async () => {
    const exported = await call("POST", `/v1/apps/${appId}/insights/export`, {
      token: clientAdmin,
      body: { chart: "unhelpful_answers", environment: "prod" },
    });
    expect(exported.status).toBe(200);
    expect(exported.body.file_type).toBe("insights_unhelpful_answers");
    const rows = (await downloadedText(host, exported.body.download_url)).trim().split("\r\n");
    expect(rows[0]).toBe("Rated,Trigger point,Question,Answer,Comment,Reviewed,Conversation,Message");
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`,admissions,When do applications close?,`);
    expect(rows[1]).toMatch(new RegExp(`,That date has passed,no,${rated.e.conversation},${rated.e.answer}$`));
  });
});

describe("the user profile store", () => {
  it("lists, searches and filters profiles with their scores; shows the conversation behind one", async () => {
    const list = (await call("GET", `/v1/apps/${appId}/user_profiles`, { token: clientUser })).body as UserProfilesList;
    expect(list.total).toBe(3);
    expect(list.fields).toEqual(["name", "email", "intended_major"]);
    const found = (await call("GET", `/v1/apps/${appId}/user_profiles?search=quillfeather`, { token: clientUser }))
      .body as UserProfilesList;
    expect(found.data.map((p) => p.conversation_id)).toEqual([dana]);
    // What visitors gave is searched, not the fields' names nor the JSON around them.
    for (const notGiven of ["intended_major", "email", '":"'])
      expect(
        (
          await call("GET", `/v1/apps/${appId}/user_profiles?search=${encodeURIComponent(notGiven)}`, {
            token: clientUser,
          })
        ).body.total,
        notGiven,
      ).toBe(0);
    expect(found.data[0]).toMatchObject({
      values: { name: "Dana Quillfeather", email: "dana.q@example.com", intended_major: "zoology" },
      lead: true,
      score: 54,
      questions: 3,
    });
    expect(
      (
        (await call("GET", `/v1/apps/${appId}/user_profiles?environment=prod`, { token: clientUser }))
          .body as UserProfilesList
      ).data.map((p) => p.conversation_id),
    ).toEqual([other]);

    const detail = await call("GET", `/v1/apps/${appId}/user_profiles/${dana}`, { token: clientUser });
    expect(detail.body.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const emailFrom = detail.body.messages.find((m: { id: number }) => m.id === detail.body.field_sources.email);
    expect(emailFrom.text).toContain("dana.q@example.com");
    expect((await call("GET", `/v1/apps/${harbor}/user_profiles`, { token: clientAdmin })).status).toBe(404);
  });

  it("deletes one person everywhere on request: profiles sharing the email, conversations, messages, rollups", async () => {
    expect((await call("DELETE", `/v1/apps/${appId}/user_profiles/${dana}`, { token: clientUser })).status).toBe(403);
    await call("POST", `/v1/apps/${appId}/insights/export`, { token: admin, body: { chart: "leads" } });
    const deleted = await call("DELETE", `/v1/apps/${appId}/user_profiles/${dana}`, { token: clientAdmin });
    expect(deleted.body).toEqual({
      message: "Deleted the person's 2 profiles and conversations",
      deleted_conversations: 2,
    });

    // Nothing of theirs is left in any table of the database.
    const tables = (
      (await host.deps.db.execute(sql`
      select table_schema, table_name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`)) as unknown as {
        rows: { table_schema: string; table_name: string }[];
      }
    ).rows;
    expect(tables.length).toBeGreaterThan(20);
    for (const { table_schema, table_name } of tables) {
      for (const trace of ["dana.q@example.com", "Quillfeather", "zoology"]) {
        const [{ n }] = (
          (await host.deps.db.execute(
            sql.raw(
              `select count(*)::int as n from "${table_schema}"."${table_name}" t where t::text ilike '%${trace}%'`,
            ),
          )) as unknown as { rows: { n: number }[] }
        ).rows;
        expect({ table: `${table_schema}.${table_name}`, trace, n }).toEqual({
          table: `${table_schema}.${table_name}`,
          trace,
          n: 0,
        });
      }
    }
    // Their reports went too; the figures are recounted without their conversations.
    const latest = await call("GET", `/v1/admin_downloads/latest_files?app_id=${appId}`, { token: admin });
    expect(latest.body.files.insights_leads).toBeUndefined();
    expect(latest.body.files.insights_unhelpful_answers).toBeUndefined();
    const after = await insights();
    // Their answer rated unhelpful went with their conversation.
    expect(after.unhelpful.answers.map((a) => a.conversation_id)).not.toContain(dana);
    expect(after.unhelpful.total).toBe(2);
    // Rebuilt from what is left, small talk counted apart as the chat counted it.
    expect(after.totals).toEqual({
      conversations: 4,
      questions: 5,
      answered: 2,
      fallback: 2,
      canned: 1,
      disclaimed: 0,
      small_talk: 1,
      leads: 1,
    });
    expect(after.top_questions[0]).toEqual({
      question: "when do applications close",
      asked_as: "When do applications close?",
      asked: 2,
      unanswered: 0,
    });
    expect((await call("GET", `/v1/apps/${appId}/user_profiles`, { token: clientUser })).body.total).toBe(1);
  });
});

describe("why a listed question went unanswered", () => {
  it("says what the latest ask's trace says: nothing held enough of it, or a chance under the threshold with pages AI Finetuning left out", async () => {
    const lab = (await insights()).unanswered_questions.find(
      (q) => q.question === "where is the quantum teleportation lab",
    )!;
    expect(["no_passage", "none_quotable"]).toContain(lab.fallback_reason);
    expect(lab.left_out).toBe(false);

    // Student Success under a threshold no chance reaches, and a rule leaving out the admissions page.
    const strict = await call("PUT", "/v1/controls", {
      token: admin,
      body: { app_id: appId, controls: [qualityCheckControl(0.99, "studentsuccess")] },
    });
    expect(strict.status, JSON.stringify(strict.body)).toBe(200);
    const rule = await call("POST", "/v1/controls/upsert_finetunings", {
      token: admin,
      body: {
        app_id: appId,
        finetunings: [
          {
            trigger_point: "studentsuccess",
            finetuning_type: "url_pattern",
            pattern: `${SITE}/admissions`,
            penalty: 1,
          },
        ],
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const question = "When do applications close, and what is the tuition per semester?";
    expect((await ask(question, { triggerPoint: "studentsuccess" })).outcome).toBe("fallback");
    const gap = (await insights("?trigger_point=studentsuccess")).unanswered_questions.find(
      (q) => q.question === "when do applications close, and what is the tuition per semester",
    );
    expect(gap).toMatchObject({
      unanswered: 1,
      fallback_reason: "below_threshold",
      left_out: true,
      asked_as: question,
    });
    // Rebuilt from the messages (as after a person's deletion), the rollup says the same.
    await rebuildInsightDays(appId, [new Date().toISOString().slice(0, 10)], host.deps.db);
    const rebuilt = (await insights("?trigger_point=studentsuccess")).unanswered_questions.find(
      (q) => q.question === gap!.question,
    );
    expect(rebuilt).toMatchObject({ fallback_reason: "below_threshold", left_out: true, asked_as: question });
    // Over all trigger points too, each listed question names the agent it was asked of.
    const overAll = (await insights()).unanswered_questions;
    expect(overAll.find((q) => q.question === gap!.question)?.trigger_point).toBe("studentsuccess");
    expect(overAll.find((q) => q.question === lab.question)?.trigger_point).toBe("studentsuccess");
  });

  it("names the question's words no passage held, of each question of several its own, the same after a rebuild", async () => {
    const lab = (await insights()).unanswered_questions.find(
      (q) => q.question === "where is the quantum teleportation lab",
    )!;
    expect([...lab.lacked_words].sort()).toEqual(["lab", "quantum", "teleportation"]);

    // Of two questions in one message, the unanswered one is listed with its own words only.
    const answered = await ask("Where is the teleportation lab? When do applications close?");
    expect(answered.outcome).toBe("answered");
    const gap = (await insights()).unanswered_questions.find((q) => q.question === "where is the teleportation lab");
    expect(gap).toMatchObject({ unanswered: 1, fallback_reason: expect.any(String) });
    expect([...gap!.lacked_words].sort()).toEqual(["lab", "teleportation"]);

    await rebuildInsightDays(appId, [today], host.deps.db);
    const rebuilt = (await insights()).unanswered_questions;
    expect(rebuilt.find((q) => q.question === gap!.question)?.lacked_words).toEqual(gap!.lacked_words);
    expect(rebuilt.find((q) => q.question === lab.question)?.lacked_words).toEqual(lab.lacked_words);

    // The chart's CSV says them too, beside the closest passage.
    const exported = await call("POST", `/v1/apps/${appId}/insights/export`, {
      token: clientAdmin,
      body: { chart: "unanswered_questions" },
    });
    expect(exported.status).toBe(200);
    const rows = (await downloadedText(host, exported.body.download_url)).split("\r\n");
    expect(rows[0]).toBe(
      "Question,Unanswered,Words no passage held,Closest passage,Its page,Its score,Files not tagged,Answered since",
    );
    expect(rows.find((row) => row.startsWith(`${lab.asked_as},`))).toContain(`,"${lab.lacked_words.join(", ")}",`);
  });
});

describe("leads of one score who started at one moment", () => {
  it("are listed in one order, whatever order the database holds them in", async () => {
    const startedAt = new Date(Date.now() - 60_000);
    // Kept in the table in the reverse of the order the list gives them.
    const ids = [randomUUID(), randomUUID(), randomUUID()].sort().reverse();
    for (const id of ids) {
      await host.deps.db.insert(conversations).values({ id, appId: harbor, environment: "prod", startedAt });
      await host.deps.db.insert(visitorProfiles).values({
        conversationId: id,
        appId: harbor,
        values: { email: `${id}@example.com` },
        fieldScore: 20,
        isLead: true,
      });
    }
    // A change writes the row anew, at the end of the table on PostgreSQL.
    await host.deps.db
      .update(visitorProfiles)
      .set({ values: { email: `${ids[0]}@example.org` } })
      .where(eq(visitorProfiles.conversationId, ids[0]));
    const read = await readInsights({ appId: harbor, ...insightRange({}), environment: "all" }, host.deps);
    expect(read.leads.top.map((lead) => lead.conversation_id)).toEqual([...ids].sort());
  });
});
