import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, controlTopics, testQuestions, testResults, testRuns } from "../db/schema";
import { moveTriggerPoint } from "../agents/site-code-rename";
import { startFixtureSite } from "../../tests/support/fixture-site";
import { indexPages } from "../../tests/support/index-pages";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";
import { citesSource, judge, runTests } from "./run-tests";

/** Test questions per agent and their runs, through the API, over a site the real pipeline indexed. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let viewer: string;
let appId: number;
let otherAppId: number;

beforeAll(async () => {
  site = await startFixtureSite();
  site.setPage(
    "/housing",
    "Housing | Northfield",
    "<h1>Housing</h1><p>First-year students live in Lakeside Hall. Housing applications open in May every year.</p>",
  );
  site.setPage(
    "/tours",
    "Campus tours | Northfield",
    "<h1>Campus tours</h1><p>Guided tours of the campus leave from Founders Hall at 10 am and 2 pm on weekdays.</p>",
  );
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 10_000 });
  call = apiCaller(host);
  admin = (await signInAs(host, "client.admin@example.com")).user_token;
  viewer = (await signInAs(host, "client.user@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  [{ id: otherAppId }] = await host.deps.db
    .insert(clientApps)
    .values({ clientName: "Elsewhere", urlCode: "elsewhere-tests" })
    .returning();
  const superAdmin = (await signInAs(host, "admin@example.com")).user_token;
  await indexPages(host, superAdmin, appId, [`${site.base}/housing`, `${site.base}/tours`]);
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const questions = (query = "") => call("GET", `/v1/apps/${appId}/test_questions${query}`, { token: admin });
const add = (body: object, token = admin) => call("POST", `/v1/apps/${appId}/test_questions`, { token, body });
/** Saves an agent's AI personality guidelines: a change that queues runs of its test questions. */
const saveGuidelines = (text: string, { triggerPoint = "", app = appId, token = admin } = {}) =>
  call("PUT", "/v1/controls", {
    token,
    body: {
      app_id: app,
      controls: [
        {
          app_id: app,
          internal_name: "ai_personality_guidelines",
          prompt_input_raw: text,
          trigger_point: triggerPoint,
        },
      ],
    },
  });

describe("test questions", () => {
  it("are added, listed, searched, changed and deleted; each must say what the answer must do", async () => {
    const created = await add({
      question: "Where do first-year students live?",
      expect_text: "Lakeside Hall",
      expect_source: `${site.base}/housing`,
    });
    expect(created.status).toBe(201);
    const empty = await add({ question: "Anything?" });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.expect_text).toEqual(["Say what the answer must do: a source, a text or an outcome"]);
    const unknownAgent = await add({ question: "Where?", expect_outcome: "answered", trigger_point: "nowhere" });
    expect(unknownAgent.status).toBe(400);
    expect(unknownAgent.body.errors.trigger_point).toBeDefined();

    const other = await add({ question: "When do tours leave?", expect_text: "10 am" });
    expect((await questions("?search=tours")).body).toMatchObject({
      total: 1,
      data: [{ id: other.body.id, question: "When do tours leave?", expect_text: "10 am" }],
    });
    expect((await questions("?page_size=1&page=2")).body.data.map((q: { id: number }) => q.id)).toEqual([
      other.body.id,
    ]);

    const changed = await call("PUT", `/v1/apps/${appId}/test_questions/${other.body.id}`, {
      token: admin,
      body: { question: "When do campus tours leave?", expect_text: "2 pm" },
    });
    expect(changed.status).toBe(200);
    expect((await questions("?search=campus")).body.data[0]).toMatchObject({
      question: "When do campus tours leave?",
      expect_text: "2 pm",
      expect_source: null,
    });
    expect((await call("DELETE", `/v1/apps/${appId}/test_questions/${other.body.id}`, { token: admin })).status).toBe(
      200,
    );
    expect((await questions("?search=tours")).body.total).toBe(0);
  });

  it("sort by a column, each way, then by when they were added", async () => {
    const ids = [
      (await add({ question: "Bravo question?", expect_outcome: "fallback" })).body.id,
      (await add({ question: "alpha question?", expect_outcome: "answered" })).body.id,
      (await add({ question: "Charlie question?", expect_outcome: "canned" })).body.id,
    ];
    const order = async (query: string) =>
      ((await questions(`?search=question%3F&${query}`)).body.data as { question: string }[]).map((q) => q.question);
    expect(await order("")).toEqual(["Bravo question?", "alpha question?", "Charlie question?"]);
    expect(await order("sort=question")).toEqual(["alpha question?", "Bravo question?", "Charlie question?"]);
    expect(await order("sort=question&order=desc")).toEqual([
      "Charlie question?",
      "Bravo question?",
      "alpha question?",
    ]);
    expect(await order("sort=expect_outcome")).toEqual(["alpha question?", "Charlie question?", "Bravo question?"]);
    expect((await questions("?sort=id;drop")).status).toBe(400);
    for (const id of ids) await call("DELETE", `/v1/apps/${appId}/test_questions/${id}`, { token: admin });
  });

  it("are imported many at once: all of them, or none when one row is refused (its row named)", async () => {
    const imported = (rows: object[], token = admin) =>
      call("POST", `/v1/apps/${appId}/test_questions/import`, { token, body: { questions: rows } });
    const refused = await imported([
      { question: "Imported one?", expect_outcome: "answered" },
      { question: "Imported two?" },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.errors["questions.1.expect_text"]).toEqual([
      "Say what the answer must do: a source, a text or an outcome",
    ]);
    expect((await questions("?search=Imported")).body.total).toBe(0);

    const done = await imported([
      { question: "Imported one?", expect_outcome: "answered" },
      { question: "Imported two?", expect_text: "two", expect_source: "https://example.org/two" },
    ]);
    expect(done.status).toBe(201);
    expect(done.body).toEqual({ created: 2, existing: 0 });
    const listed = (await questions("?search=Imported")).body;
    expect(listed.total).toBe(2);
    expect(listed.data[1]).toMatchObject({
      question: "Imported two?",
      expect_text: "two",
      expect_source: "https://example.org/two",
      trigger_point: "",
    });

    expect((await imported([], admin)).status).toBe(400);
    expect(
      (await imported(Array.from({ length: 501 }, (_, i) => ({ question: `Q${i}?`, expect_outcome: "answered" }))))
        .status,
    ).toBe(400);
    expect((await imported([{ question: "Mine?", expect_outcome: "answered" }], viewer)).status).toBe(403);
    expect(
      (
        await call("POST", `/v1/apps/${otherAppId}/test_questions/import`, {
          token: admin,
          body: { questions: [{ question: "Theirs?", expect_outcome: "answered" }] },
        })
      ).status,
    ).toBe(404);
    for (const row of listed.data as { id: number }[])
      await call("DELETE", `/v1/apps/${appId}/test_questions/${row.id}`, { token: admin });
  });

  it("are read one at a time as stored, by anyone who may read them", async () => {
    const { id } = (await add({ question: "Where is Founders Hall?", expect_text: "campus" })).body;
    const one = await call("GET", `/v1/apps/${appId}/test_questions/${id}`, { token: viewer });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id,
      trigger_point: "",
      question: "Where is Founders Hall?",
      expect_text: "campus",
    });
    expect((await call("GET", `/v1/apps/${otherAppId}/test_questions/${id}`, { token: admin })).status).toBe(404);
    await call("DELETE", `/v1/apps/${appId}/test_questions/${id}`, { token: admin });
    expect((await call("GET", `/v1/apps/${appId}/test_questions/${id}`, { token: admin })).status).toBe(404);
  });

  it("are kept once per trigger point: the same question added again, or changed into, is refused", async () => {
    const first = await add({ question: "Is there a  late bus?", expect_text: "10 pm", trigger_point: "admissions" });
    expect(first.status).toBe(201);
    const message = "This question is already a test question of Admissions Assistant";
    for (const question of ["Is there a late bus?", "is there a LATE bus?"]) {
      const again = await add({ question, expect_outcome: "answered", trigger_point: "admissions" });
      expect(again.status, question).toBe(409);
      expect(again.body).toMatchObject({ message, errors: { question: [message] } });
    }
    // Another trigger point may ask it too; a change into a copy is refused, a change of the question itself is not.
    const elsewhere = await add({ question: "Is there a late bus?", expect_text: "10 pm" });
    expect(elsewhere.status).toBe(201);
    const change = (id: number, question: string) =>
      call("PUT", `/v1/apps/${appId}/test_questions/${id}`, {
        token: admin,
        body: { question, expect_text: "11 pm", trigger_point: "admissions" },
      });
    expect((await change(elsewhere.body.id, "IS THERE A LATE BUS?")).status).toBe(409);
    expect((await change(first.body.id, "Is there a late bus?")).status).toBe(200);

    // Five adds at once (clicks in quick succession): one is kept.
    const clicks = await Promise.all(
      Array.from({ length: 5 }, () => add({ question: "Where do buses stop?", expect_outcome: "answered" })),
    );
    expect(clicks.map((click) => click.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const id of [first.body.id, elsewhere.body.id, clicks.find((click) => click.status === 201)!.body.id])
      await call("DELETE", `/v1/apps/${appId}/test_questions/${id}`, { token: admin });
  });

  it("are read-only for a client user and out of reach of another client", async () => {
    expect((await questions()).status).toBe(200);
    expect((await call("GET", `/v1/apps/${appId}/test_questions`, { token: viewer })).status).toBe(200);
    expect((await add({ question: "Where?", expect_outcome: "answered" }, viewer)).status).toBe(403);
    // Another client's are not there at all, as with every client-scoped call.
    expect((await call("GET", `/v1/apps/${otherAppId}/test_questions`, { token: admin })).status).toBe(404);
    const mine = (await questions()).body.data[0].id;
    expect((await call("DELETE", `/v1/apps/${otherAppId}/test_questions/${mine}`, { token: admin })).status).toBe(404);
    // Another client's question under this client's path is not there either.
    const [foreign] = await host.deps.db
      .insert(testQuestions)
      .values({ appId: otherAppId, question: "Theirs?", expectOutcome: "answered" })
      .returning();
    expect(
      (
        await call("PUT", `/v1/apps/${appId}/test_questions/${foreign.id}`, {
          token: admin,
          body: { question: "Mine now?", expect_outcome: "answered" },
        })
      ).status,
    ).toBe(404);
    expect((await call("DELETE", `/v1/apps/${appId}/test_questions/${foreign.id}`, { token: admin })).status).toBe(404);
    await host.deps.db.delete(testQuestions).where(eq(testQuestions.id, foreign.id));
  });

  it("refuse a NUL byte, an over-long question and a huge body with a 4xx and a message", async () => {
    const nul = await add({ question: "Where\u0000 now?", expect_outcome: "answered" });
    expect(nul.status).toBe(400);
    expect(nul.body.message).toEqual(expect.any(String));
    const long = await add({ question: "x".repeat(1_000_000), expect_outcome: "answered" });
    expect(long.status).toBeGreaterThanOrEqual(400);
    expect(long.status).toBeLessThan(500);
    expect(long.body.message).toEqual(expect.any(String));
    const huge = await call("POST", `/v1/apps/${appId}/test_questions`, {
      token: admin,
      rawBody: `{"question":"${"y".repeat(11 * 1024 * 1024)}"}`,
    });
    expect(huge.status).toBe(413);
  });
});

describe("test runs", () => {
  it("ask every question through the chat's responder and say which passed and why the others did not", async () => {
    await add({ question: "What time do campus tours leave?", expect_text: "10 am", expect_outcome: "answered" });
    await add({ question: "Which hall do first-years live in?", expect_text: "Old Quad" });
    await add({ question: "What is the weather on Mars today?", expect_outcome: "fallback" });
    const queued = await call("POST", `/v1/apps/${appId}/test_runs`, { token: admin, body: { environment: "stage" } });
    expect(queued.status).toBe(202);

    const run = await until(
      "the run to finish",
      async () => {
        const { body } = await call("GET", `/v1/apps/${appId}/test_runs/${queued.body.id}`, { token: viewer });
        return body.status === "done" && body;
      },
      30_000,
    );
    expect(run).toMatchObject({ environment: "stage", trigger: "manual", trigger_point: "" });
    const byQuestion = Object.fromEntries(run.results.map((r: { question: string }) => [r.question, r]));
    expect(byQuestion["Where do first-year students live?"]).toMatchObject({ passed: true, outcome: "answered" });
    expect(byQuestion["Where do first-year students live?"].sources[0].url).toBe(`${site.base}/housing`);
    expect(byQuestion["What time do campus tours leave?"]).toMatchObject({ passed: true });
    expect(byQuestion["What is the weather on Mars today?"]).toMatchObject({ passed: true, outcome: "fallback" });
    // Each result keeps the words of its question no passage held, as the visitor wrote them.
    expect(byQuestion["What is the weather on Mars today?"].lacked_words).toEqual(
      expect.arrayContaining(["weather", "mars"]),
    );
    expect(byQuestion["Where do first-year students live?"].lacked_words).toEqual([]);
    expect(byQuestion["Which hall do first-years live in?"]).toMatchObject({
      passed: false,
      reason: "text missing",
      outcome: "answered",
    });
    expect(run.passed).toBe(run.results.filter((r: { passed: boolean }) => r.passed).length);
    expect(run.failed, JSON.stringify(run.results.filter((r: { passed: boolean }) => !r.passed))).toBe(1);
    expect(run.total).toBe(run.results.length);
    expect(run.error).toBeNull();

    // The first run of an agent and environment has nothing to compare with.
    expect(run.changes).toBeNull();
    const listed = await call("GET", `/v1/apps/${appId}/test_runs?environment=stage`, { token: viewer });
    expect(listed.body.data[0]).toMatchObject({ id: queued.body.id, status: "done" });
    expect(
      (await call("POST", `/v1/apps/${appId}/test_runs`, { token: viewer, body: { environment: "stage" } })).status,
    ).toBe(403);
    expect((await call("GET", `/v1/apps/${otherAppId}/test_runs/${queued.body.id}`, { token: admin })).status).toBe(
      404,
    );
    expect(
      (await call("POST", `/v1/apps/${appId}/test_runs`, { token: admin, body: { environment: "live" } })).status,
    ).toBe(400);
  });

  it("refuses to run an agent that has no test questions, queueing nothing", async () => {
    const runsOf = async () =>
      (await call("GET", `/v1/apps/${appId}/test_runs?trigger_point=studentsuccess`, { token: admin })).body.data;
    const before = await runsOf();
    const refused = await call("POST", `/v1/apps/${appId}/test_runs`, {
      token: admin,
      body: { trigger_point: "studentsuccess", environment: "stage" },
    });
    expect(refused).toEqual({
      status: 400,
      body: { message: "This agent has no test questions to run: add one first" },
    });
    expect(await runsOf()).toEqual(before);
  });
});

describe("a run beside the previous one", () => {
  it("says which questions newly fail and which newly pass since the last finished run of that environment", async () => {
    const all = (await call("GET", `/v1/apps/${appId}/test_questions?page_size=100`, { token: admin })).body.data as {
      id: number;
      question: string;
    }[];
    const hall = all.find((q) => q.question === "Which hall do first-years live in?")!;
    const tours = all.find((q) => q.question === "What time do campus tours leave?")!;
    await call("PUT", `/v1/apps/${appId}/test_questions/${hall.id}`, {
      token: admin,
      body: { question: hall.question, expect_text: "Lakeside Hall" },
    });
    await call("PUT", `/v1/apps/${appId}/test_questions/${tours.id}`, {
      token: admin,
      body: { question: tours.question, expect_text: "midnight" },
    });
    // Added since the previous run: its failure is new, though nothing it did before changed.
    const added = (await add({ question: "Is there a velodrome on campus?", expect_outcome: "answered" })).body;
    const queued = await call("POST", `/v1/apps/${appId}/test_runs`, { token: admin, body: { environment: "stage" } });
    const run = await until(
      "the second run to finish",
      async () => {
        const { body } = await call("GET", `/v1/apps/${appId}/test_runs/${queued.body.id}`, { token: admin });
        return body.status === "done" && body;
      },
      30_000,
    );
    expect(run.changes.newly_passing).toEqual([{ question_id: hall.id, question: hall.question }]);
    expect(run.changes.newly_failing).toEqual([
      { question_id: tours.id, question: tours.question, reason: "text missing" },
    ]);
    expect(run.changes.previous_run_id).toBeLessThan(queued.body.id);
    expect(run.changes.new_questions).toBe(1);
    expect(run.changes.new_failing).toEqual([
      {
        question_id: added.id,
        question: "Is there a velodrome on campus?",
        reason: "outcome differs (fallback, expected answered)",
      },
    ]);
  });
});

describe("queueing", () => {
  it("answers the run still waiting for the same agent and environment instead of queueing another, and starts it", async () => {
    // Due, with no job fetched for it yet: a job held for later is not announced when it comes due,
    // so the queue's worker would only find it at its next poll, up to half a minute on.
    const [waiting] = await host.deps.db
      .insert(testRuns)
      .values({ appId, triggerPoint: "", environment: "prod", trigger: "manual" })
      .returning();
    const asked = await call("POST", `/v1/apps/${appId}/test_runs`, { token: admin, body: { environment: "prod" } });
    expect(asked).toEqual({ status: 202, body: { id: waiting.id } });
    await until(
      `run ${waiting.id} to finish`,
      async () =>
        (await call("GET", `/v1/apps/${appId}/test_runs/${waiting.id}`, { token: admin })).body.status === "done",
      10_000,
    );
  });

  it("starts a run that waits out the one-run-a-minute rule at once when asked by hand, instead of queueing a second", async () => {
    const ask = () => call("POST", `/v1/apps/${appId}/test_runs`, { token: admin, body: { environment: "stage" } });
    const finished = async (id: number, timeoutMs: number) =>
      until(
        `run ${id} to finish`,
        async () => {
          const { body } = await call("GET", `/v1/apps/${appId}/test_runs/${id}`, { token: admin });
          return body.status === "done" && body;
        },
        timeoutMs,
      );
    await finished((await ask()).body.id, 30_000);
    // A change just after a run: its run is held back for the rest of the minute.
    const saved = await saveGuidelines("Answer in full.");
    expect(saved.status).toBe(200);
    const [held] = await host.deps.db
      .select()
      .from(testRuns)
      .where(
        and(
          eq(testRuns.appId, appId),
          eq(testRuns.triggerPoint, ""),
          eq(testRuns.environment, "stage"),
          eq(testRuns.status, "queued"),
        ),
      );
    expect(held).toMatchObject({ trigger: "controls saved" });
    expect(held.startAfter.getTime() - Date.now()).toBeGreaterThan(30_000);
    // The API says when it starts, so the screens can.
    const waiting = (await call("GET", `/v1/apps/${appId}/test_runs/${held.id}`, { token: admin })).body;
    expect(waiting).toMatchObject({ status: "queued", start_after: held.startAfter.toISOString() });

    const asked = await ask();
    expect(asked).toEqual({ status: 202, body: { id: held.id } });
    // Well before the rest of the minute is out.
    const run = await finished(held.id, 15_000);
    expect(run).toMatchObject({ trigger: "controls saved, started by hand", error: null });
    // Brought forward: it was due when asked for, well before the end of its minute.
    expect(Date.parse(run.start_after)).toBeLessThan(held.startAfter.getTime() - 20_000);
    expect(run.results.length).toBeGreaterThan(0);
    // Asked again once it is done: a new run, started at once too.
    const again = await ask();
    expect(again.body.id).toBeGreaterThan(held.id);
    expect(await finished(again.body.id, 15_000)).toMatchObject({ trigger: "manual" });
  });
});

describe("the runs list", () => {
  it("lists runs by when they started, so a run held back by the one-a-minute rule comes after one started at once", async () => {
    const run = { appId, triggerPoint: "listorder", environment: "stage", trigger: "manual", status: "done" };
    const now = Date.now();
    const [held] = await host.deps.db
      .insert(testRuns)
      .values({ ...run, createdAt: new Date(now - 30_000), startAfter: new Date(now - 5_000) })
      .returning();
    const [atOnce] = await host.deps.db
      .insert(testRuns)
      .values({ ...run, createdAt: new Date(now - 60_000), startAfter: new Date(now - 60_000) })
      .returning();
    const [newest] = await host.deps.db
      .insert(testRuns)
      .values({ ...run, createdAt: new Date(now - 1_000), startAfter: new Date(now - 1_000) })
      .returning();
    const listed = await call("GET", `/v1/apps/${appId}/test_runs?trigger_point=listorder`, { token: viewer });
    expect(listed.body.data.map((r: { id: number }) => r.id)).toEqual([newest.id, held.id, atOnce.id]);
    // Created in another order: held first, then the one that started a minute ago.
    expect(held.id).toBeLessThan(atOnce.id);
  });
});

describe("runs queued by changes", () => {
  it("follow a control saved for Default, once per agent and environment while one waits, and say what queued them", async () => {
    const stageRuns = async () =>
      (await call("GET", `/v1/apps/${appId}/test_runs?environment=stage&trigger_point=`, { token: admin })).body
        .data as { trigger: string; status: string }[];
    const before = (await stageRuns()).length;
    expect((await saveGuidelines("Be brief and friendly.")).status).toBe(200);
    const after = await stageRuns();
    expect(after.length).toBe(before + 1);
    // The last run was a minute ago at most: this one waits out the rest of that minute.
    expect(after[0]).toMatchObject({ trigger: "controls saved", status: "queued" });
    expect((await saveGuidelines("Be brief, friendly and precise.")).status).toBe(200);
    expect((await stageRuns()).length).toBe(before + 1);
  });

  it("start within seconds of the end of their minute, not at the queue's next poll", async () => {
    const superAdmin = (await signInAs(host, "admin@example.com")).user_token;
    const agent = "heldback";
    const created = await call("POST", `/v1/apps/${appId}/agents/update_agents`, {
      token: superAdmin,
      body: { app_id: appId, name: "Held back", site_code: agent },
    });
    expect(created.status).toBe(200);
    expect((await add({ question: "When do tours leave?", expect_text: "10 am", trigger_point: agent })).status).toBe(
      201,
    );
    // The agent's last stage run began 57 s ago: a change now waits out the last 3 s of that minute.
    await host.deps.db.insert(testRuns).values({
      appId,
      triggerPoint: agent,
      environment: "stage",
      trigger: "manual",
      status: "done",
      createdAt: new Date(Date.now() - 57_000),
      finishedAt: new Date(Date.now() - 56_000),
    });
    const saved = await saveGuidelines("Be brief.", { triggerPoint: agent });
    expect(saved.status).toBe(200);
    const stageRuns = async () =>
      (await call("GET", `/v1/apps/${appId}/test_runs?environment=stage&trigger_point=${agent}`, { token: admin })).body
        .data as { id: number; trigger: string; status: string }[];
    const [held] = await stageRuns();
    expect(held).toMatchObject({ trigger: "controls saved", status: "queued" });
    const queuedAt = Date.now();
    await until(`run ${held.id} to finish`, async () => (await stageRuns())[0].status === "done", 20_000);
    // Its 3 s, the queue's poll of a few seconds and the run itself: well inside half a minute.
    expect(Date.now() - queuedAt).toBeLessThan(12_000);
  });

  it("are not queued for a client whose agents have no test questions", async () => {
    const superAdmin = (await signInAs(host, "admin@example.com")).user_token;
    await saveGuidelines("Hello.", { app: otherAppId, token: superAdmin });
    expect(await host.deps.db.select().from(testRuns).where(eq(testRuns.appId, otherAppId))).toEqual([]);
  });
});

describe("the production gate's comparison", () => {
  it("lists what the last stage run fails that the last prod run passes, for one agent", async () => {
    const gate = () => call("GET", `/v1/apps/${appId}/test_gate?trigger_point=studentsuccess`, { token: viewer });
    expect((await gate()).body).toEqual({
      stage: null,
      prod: null,
      stage_fails_prod_passes: [],
      stage_pending: null,
      prod_pending: null,
    });
    const [question] = await host.deps.db
      .insert(testQuestions)
      .values({ appId, triggerPoint: "studentsuccess", question: "Who advises new students?", expectText: "advisor" })
      .returning();
    const finished = {
      appId,
      triggerPoint: "studentsuccess",
      trigger: "manual",
      status: "done",
      finishedAt: new Date(),
    };
    const [prod] = await host.deps.db
      .insert(testRuns)
      .values({ ...finished, environment: "prod", passed: 1 })
      .returning();
    const [stage] = await host.deps.db
      .insert(testRuns)
      .values({ ...finished, environment: "stage", failed: 1 })
      .returning();
    const result = {
      questionId: question.id,
      question: question.question,
      outcome: "answered",
      answer: "…",
      sources: [],
    };
    await host.deps.db.insert(testResults).values([
      { ...result, runId: prod.id, passed: true, reason: null },
      { ...result, runId: stage.id, passed: false, reason: "text missing" },
    ]);
    const { body } = await gate();
    expect(body.stage).toMatchObject({ id: stage.id, environment: "stage", failed: 1 });
    expect(body.prod).toMatchObject({ id: prod.id, environment: "prod", passed: 1 });
    expect(body.stage_fails_prod_passes).toEqual([
      { question_id: question.id, question: "Who advises new students?", reason: "text missing" },
    ]);
    expect(body.stage_pending).toBeNull();

    // A change since: its stage run waits for its minute, and the gate says the stage run it shows came before it.
    const [waiting] = await host.deps.db
      .insert(testRuns)
      .values({
        appId,
        triggerPoint: "studentsuccess",
        environment: "stage",
        trigger: "controls saved",
        status: "queued",
        startAfter: new Date(Date.now() + 60_000),
      })
      .returning();
    const later = (await gate()).body;
    expect(later.stage).toMatchObject({ id: stage.id });
    expect(later.stage_pending).toMatchObject({
      id: waiting.id,
      status: "queued",
      trigger: "controls saved",
      total: 1,
    });
    expect(later.prod_pending).toBeNull();

    // A file indexed since: its prod run is asking, and the gate says the prod run it shows came before it.
    const [asking] = await host.deps.db
      .insert(testRuns)
      .values({
        appId,
        triggerPoint: "studentsuccess",
        environment: "prod",
        trigger: "file indexed",
        status: "running",
        questions: 1,
      })
      .returning();
    const pushed = (await gate()).body;
    expect(pushed.prod).toMatchObject({ id: prod.id });
    expect(pushed.prod_pending).toMatchObject({ id: asking.id, status: "running", total: 1 });
    expect(pushed.stage_pending).toMatchObject({ id: waiting.id });
    await host.deps.db.delete(testRuns).where(inArray(testRuns.id, [waiting.id, asking.id]));
  });
});

describe("a result's verdict", () => {
  const answer = {
    text: "Guided tours leave from Founders Hall at 10\u00a0am.",
    outcome: "answered" as const,
    sources: [{ title: "Campus tours", url: "https://www.northfield.edu/tours/" }],
  };
  it("compares text as a reader would and sources by address or file name", () => {
    expect(
      judge(
        {
          expectText: "founders hall at 10 am",
          expectSource: "https://www.northfield.edu/tours",
          expectOutcome: "answered",
        },
        answer,
      ),
    ).toEqual({ passed: true, reason: null });
    expect(
      judge(
        { expectText: "2 pm", expectSource: "https://www.northfield.edu/housing", expectOutcome: "fallback" },
        answer,
      ),
    ).toEqual({
      passed: false,
      reason: "outcome differs (answered, expected fallback); source not cited; text missing",
    });
    // A message of several questions is answered when any of them is, but a test expecting an
    // answer passes only when none of them got the fallback.
    const several = {
      ...answer,
      trace: {
        parts: [
          { question: "Where do tours leave from?", outcome: "answered" as const },
          { question: "How much do they cost?", outcome: "fallback" as const },
        ],
      },
    };
    expect(judge({ expectText: null, expectSource: null, expectOutcome: "answered" }, several)).toEqual({
      passed: false,
      reason: "question 2 got the fallback",
    });
    expect(judge({ expectText: "founders hall", expectSource: null, expectOutcome: null }, several).passed).toBe(true);
    expect(
      citesSource(
        [{ title: "Catalog 2026", url: "http://127.0.0.1/storage/download/files/7/catalog.pdf?expires=1&signature=x" }],
        "catalog.pdf",
      ),
    ).toBe(true);
    expect(
      citesSource(
        [{ title: "Catalog 2026", url: "http://127.0.0.1/storage/download/files/7/catalog.pdf" }],
        "Catalog 2026",
      ),
    ).toBe(true);
    expect(citesSource([{ title: "Catalog 2026", url: "http://127.0.0.1/x/other.pdf" }], "catalog.pdf")).toBe(false);
    // A file by its name as the Files page shows it, though its source is titled without ".pdf" and
    // its stored copy's name has no spaces or plus signs.
    const handbook = [
      {
        title: "Harborview Student Handbook_ 2024_",
        url: "http://127.0.0.1/storage/download/files/9/Harborview_Student_Handbook_2024_.pdf?expires=1",
      },
    ];
    expect(citesSource(handbook, "Harborview Student Handbook_ 2024_.pdf")).toBe(true);
    expect(citesSource(handbook, "Harborview Student Handbook, 2024+.pdf")).toBe(true);
    expect(citesSource(handbook, "Student Handbook 2024.pdf")).toBe(false);
    // An address with letters beyond ASCII, written as people write it or as it is stored.
    const fees = [{ title: "学费", url: "https://intl.example.org/zh/%E5%AD%A6%E8%B4%B9" }];
    expect(citesSource(fees, "https://intl.example.org/zh/学费")).toBe(true);
    expect(citesSource(fees, "https://intl.example.org/zh/%e5%ad%a6%e8%b4%b9/")).toBe(true);
    expect(citesSource(fees, "https://intl.example.org/zh/住宿")).toBe(false);
  });
});

/**
 * The host's database, with each write of a run's results handed to `around`, which makes the
 * write (`write`) and may do what an operator does just before or after it.
 */
function withResultsWrite(around: (write: () => Promise<unknown>) => Promise<void>) {
  return new Proxy(host.deps.db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== "insert") return typeof value === "function" ? value.bind(target) : value;
      return (table: unknown) => {
        if (table !== testResults) return target.insert(table as typeof testResults);
        return {
          values: (rows: unknown) =>
            around(() => target.insert(testResults).values(rows as (typeof testResults.$inferInsert)[])),
        };
      };
    },
  });
}

describe("a question deleted while its run asks it", () => {
  it("keeps its result, without the question, and the run finishes", async () => {
    const [question] = await host.deps.db
      .insert(testQuestions)
      .values({ appId, triggerPoint: "deleted-meanwhile", question: "Where do first-year students live?" })
      .returning();
    const [run] = await host.deps.db
      .insert(testRuns)
      .values({ appId, triggerPoint: "deleted-meanwhile", environment: "stage", trigger: "manual", status: "queued" })
      .returning();
    // The operator deletes the question after the run read it, just before its result is written.
    const db = withResultsWrite(async (write) => {
      await host.deps.db.delete(testQuestions).where(eq(testQuestions.id, question.id));
      await write();
    });
    expect(await runTests(run.id, { ...host.deps, db, workerId: "test" })).toEqual({ passed: 1, failed: 0 });
    const results = await host.deps.db.select().from(testResults).where(eq(testResults.runId, run.id));
    expect(results).toMatchObject([{ questionId: null, question: "Where do first-year students live?", passed: true }]);
  });
});

describe("an agent renamed while its run asks its questions", () => {
  it("asks the rest under the agent's new code, where its settings went, so the run judges the agent as it is", async () => {
    await host.deps.db.insert(controlTopics).values({
      appId,
      internalName: "no_go_topics",
      promptInputRaw: "parking permits",
      metadata: { disclaimer: "Ask the parking office about permits." },
      triggerPoint: "desk-old",
    });
    await host.deps.db.insert(testQuestions).values(
      Array.from({ length: 60 }, (_, i) => ({
        appId,
        triggerPoint: "desk-old",
        question: `How do I get parking permits for lot ${i + 1}?`,
        expectOutcome: "canned",
      })),
    );
    const [run] = await host.deps.db
      .insert(testRuns)
      .values({ appId, triggerPoint: "desk-old", environment: "stage", trigger: "manual", status: "queued" })
      .returning();
    // The operator renames the agent once the run's first results are written.
    let renamed = false;
    const db = withResultsWrite(async (write) => {
      await write();
      if (!renamed) await host.deps.db.transaction((tx) => moveTriggerPoint(tx, appId, "desk-old", "desk-new"));
      renamed = true;
    });
    expect(await runTests(run.id, { ...host.deps, db, workerId: "test" })).toEqual({ passed: 60, failed: 0 });
    expect(renamed).toBe(true);
  });
});

describe("a run's total while it runs", () => {
  it("counts the questions it started with, not those added meanwhile", async () => {
    const ask = (i: number) => ({
      appId,
      triggerPoint: "counted-run",
      question: `Where do first-year students live, asked ${i} times?`,
    });
    await host.deps.db.insert(testQuestions).values([ask(1), ask(2), ask(3)]);
    const [run] = await host.deps.db
      .insert(testRuns)
      .values({ appId, triggerPoint: "counted-run", environment: "stage", trigger: "manual", status: "queued" })
      .returning();
    const runNow = async () => (await call("GET", `/v1/apps/${appId}/test_runs/${run.id}`, { token: viewer })).body;
    expect((await runNow()).total).toBe(3);
    // An import adds forty questions to the agent while its run asks the three it read.
    const totalsSeen: number[] = [];
    const db = withResultsWrite(async (write) => {
      await host.deps.db.insert(testQuestions).values(Array.from({ length: 40 }, (_, i) => ask(i + 4)));
      const running = await runNow();
      expect(running.status).toBe("running");
      totalsSeen.push(running.total);
      await write();
    });
    expect(await runTests(run.id, { ...host.deps, db, workerId: "test" })).toEqual({ passed: 3, failed: 0 });
    expect(totalsSeen).toEqual([3]);
    expect(await runNow()).toMatchObject({ status: "done", total: 3 });
    // A run queued now will ask all forty-three.
    const [next] = await host.deps.db
      .insert(testRuns)
      .values({ appId, triggerPoint: "counted-run", environment: "prod", trigger: "manual", status: "queued" })
      .returning();
    expect((await call("GET", `/v1/apps/${appId}/test_runs/${next.id}`, { token: viewer })).body.total).toBe(43);
  });
});
