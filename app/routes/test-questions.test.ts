import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";
import * as screen from "./$appName.agent.$agentName.controls.test-questions";
import * as exportRoute from "./$appName.agent.$agentName.controls.test-questions_.export";
import * as runRoute from "./$appName.agent.$agentName.controls.test-questions_.runs.$runId";
import * as appearance from "./$appName.agent.$agentName.appearance";
import { testRunRecords } from "../../tests/support/test-runs";
import { DELETED_MEANWHILE } from "~/server/test-questions.server";

/** The Test Questions screen's loader and actions over the real API, as a form post without JavaScript sends them. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let admin: string;
let viewer: string;
const PAGE = "/northfield/agent/admissions/controls/test-questions";
const params = { appName: "northfield", agentName: "admissions" };

beforeAll(async () => {
  host = await startTestHost();
  admin = await signInToConsole(host, "client.admin@example.com");
  viewer = await signInToConsole(host, "client.user@example.com");
});
afterAll(async () => {
  await host?.close();
});

const args = (request: Request, extra: Record<string, string> = {}) => ({
  request,
  context: testContext(host),
  params: { ...params, ...extra },
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (search = "", cookie = admin): Promise<any> =>
  loaderJson(screen.loader, args(getRequest(`${PAGE}${search}`, cookie)));
const loadRun = (runPage: string, runId: string, cookie = admin) =>
  loaderJson(runRoute.loader, args(getRequest(runPage, cookie), { runId }));
const post = (fields: Record<string, string>, cookie = admin, search = "") =>
  settle(() => screen.action(args(formRequest(`${PAGE}${search}`, fields, cookie))));
function csvPost(csv: string, cookie = admin) {
  const body = new FormData();
  body.append("intent", "import");
  body.append("file", new File([csv], "questions.csv", { type: "text/csv" }));
  return settle(() =>
    screen.action(args(new Request(`http://localhost${PAGE}`, { method: "POST", body, headers: { cookie } }))),
  );
}

describe("Test Questions", () => {
  it("refuses a question without what it needs, keeping what was typed, the message beside its field", async () => {
    const refused = await post({
      intent: "add",
      question: "Where do first-years live?",
      expect_source: "",
      expect_text: "",
      expect_outcome: "",
    });
    expect(refused.status).toBe(400);
    const data = await refused.json();
    expect(data.values.question).toBe("Where do first-years live?");
    expect(data.fieldErrors.expect_text).toEqual(["Say what the answer must do: a source, a text or an outcome"]);
  });

  it("adds a question", async () => {
    const added = await post(
      {
        intent: "add",
        question: "Where do first-years live?",
        expect_source: "",
        expect_text: "Lakeside Hall",
        expect_outcome: "answered",
      },
      admin,
      "?edit=1",
    );
    expect(added).toHaveRedirect(PAGE);
    await expect(added).toSendToast({ type: "success", description: "Test question added" });
    const listed = await load();
    expect(listed.questions).toMatchObject([
      {
        question: "Where do first-years live?",
        expect_text: "Lakeside Hall",
        expect_outcome: "answered",
        trigger_point: "admissions",
      },
    ]);
  });

  it("adds a question once: posted again, it is said beside the question and nothing is added", async () => {
    const again = await post({
      intent: "add",
      question: "Where do first-years live?",
      expect_source: "",
      expect_text: "Lakeside Hall",
      expect_outcome: "answered",
    });
    expect(again.status).toBe(409);
    expect((await again.json()).fieldErrors).toEqual({
      question: ["This question is already a test question of Admissions Assistant"],
    });
    expect((await load()).paging.total).toBe(1);
  });

  it("opens a question for editing through ?edit=", async () => {
    const [question] = (await load()).questions;
    const editing = await load(`?edit=${question.id}`);
    expect(editing.editing).toEqual({
      id: question.id,
      values: {
        question: "Where do first-years live?",
        expect_source: "",
        expect_text: "Lakeside Hall",
        expect_outcome: "answered",
      },
    });
    expect((await load("?edit=99999999999999999999")).editing).toBeNull();
  });

  it("saves an edited question", async () => {
    const [question] = (await load()).questions;
    const saved = await post({
      intent: "update",
      id: String(question.id),
      question: "Where do first-year students live?",
      expect_source: "",
      expect_text: "Lakeside",
      expect_outcome: "",
    });
    await expect(saved).toSendToast({ type: "success", description: "Test question saved" });
    expect((await load()).questions[0]).toMatchObject({
      id: question.id,
      question: "Where do first-year students live?",
      expect_text: "Lakeside",
      expect_outcome: null,
    });
  });

  it("refuses an edit without a question, the message beside its field", async () => {
    const [question] = (await load()).questions;
    const refused = await post({
      intent: "update",
      id: String(question.id),
      question: "",
      expect_source: "",
      expect_text: "Lakeside",
      expect_outcome: "",
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      intent: "update",
      id: question.id,
      fieldErrors: { question: ["This field is required"] },
    });
  });

  it("says a question deleted meanwhile is gone: an edit comes back to be added again, a delete is done", async () => {
    const edited = await post({ intent: "update", id: "99999999", question: "Q?", expect_text: "x" });
    expect(edited.status).toBe(404);
    expect(await edited.json()).toMatchObject({
      intent: "add",
      id: null,
      values: { question: "Q?", expect_text: "x" },
      formError: DELETED_MEANWHILE,
    });
    for (const id of ["99999999", "abc"]) {
      const deleted = await post({ intent: "delete", id });
      await expect(deleted).toSendToast({ type: "info", description: "This test question was already deleted" });
    }
  });

  it("asks before a question goes: ?delete= names one of the page's questions", async () => {
    const [question] = (await load()).questions;
    expect((await load(`?delete=${question.id}`)).deleting).toEqual({ id: question.id, question: question.question });
    expect((await load("?delete=99999999")).deleting).toBeNull();
  });

  it("deletes a question once confirmed, back at the list without the question asked", async () => {
    const [question] = (await load()).questions;
    const deleted = await post({ intent: "delete", id: String(question.id) }, admin, `?delete=${question.id}`);
    await expect(deleted).toSendToast({ type: "success", description: "Test question deleted" });
    expect(deleted.headers.get("location")).not.toContain("delete=");
    expect((await load()).questions).toEqual([]);
  });

  it("imports all rows of a CSV or none, naming a refused row by its line", async () => {
    const bad = await csvPost(
      "question,expect_text,expect_outcome\nWhen do tours leave?,10 am,\nNothing expected?,,\n",
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).importErrors).toEqual([
      "Row 3, expect_text: Say what the answer must do: a source, a text or an outcome",
    ]);
    expect((await load()).paging.total).toBe(0);
  });

  it("names a refused row as a spreadsheet numbers it, blank rows counted", async () => {
    const bad = await csvPost(
      "question,expect_text,expect_outcome\n\nWhen do tours leave?,10 am,\n,,\nNothing expected?,,\n",
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).importErrors).toEqual([
      "Row 5, expect_text: Say what the answer must do: a source, a text or an outcome",
    ]);
  });

  it("refuses a CSV without its header row, an empty one and none at all", async () => {
    expect((await (await csvPost("text\nhello\n")).json()).importErrors[0]).toMatch(
      /^The first row must name the columns/,
    );
    expect((await (await csvPost("")).json()).importErrors).toEqual(["Choose a CSV file to import."]);
    expect((await (await csvPost("\n ,\n")).json()).importErrors).toEqual([
      "The file is empty: it needs a header row and a row per question.",
    ]);
  });

  it("imports a CSV and exports one that imports back", async () => {
    const csv =
      'Expect_Outcome,Question,Expect_Text\r\nFallback,What is the weather on Mars?,\r\nanswered,"Tours, when?",=10 am\r\n';
    const imported = await csvPost(csv);
    await expect(imported).toSendToast({ type: "success", description: "2 test questions imported" });
    const exported = await settle(() => exportRoute.loader(args(getRequest(`${PAGE}/export`, admin))));
    expect(exported.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(exported.headers.get("content-disposition")).toBe('attachment; filename="test_questions_admissions.csv"');
    const bytes = new Uint8Array(await exported.clone().arrayBuffer());
    // UTF-8's byte order mark first, so a spreadsheet opens the accents as they are.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = await exported.text();
    expect(text).toBe(
      'question,expect_source,expect_text,expect_outcome\r\nWhat is the weather on Mars?,,,fallback\r\n"Tours, when?",,\'=10 am,answered\r\n',
    );
    // Imported back, it adds nothing twice.
    await expect(await csvPost(text)).toSendToast({
      type: "success",
      description: "0 test questions imported; 2 left out as questions the agent already has",
    });
    // What was exported reads back the same (the formula guard's apostrophe dropped).
    await csvPost(text.replace("Tours", "Visits").replace("Mars", "Venus"));
    const rows = (await load("?sort=question&page_size=10")).questions.map(
      (q: { question: string; expect_text: string | null }) => [q.question, q.expect_text],
    );
    expect(rows).toEqual([
      ["Tours, when?", "=10 am"],
      ["Visits, when?", "=10 am"],
      ["What is the weather on Mars?", null],
      ["What is the weather on Venus?", null],
    ]);
    expect((await load("?search=Mars")).paging.total).toBe(1);
  });

  it("queues a run and shows it, with its progress and results, on its own page", async () => {
    const queued = await post({ intent: "run", environment: "stage" });
    expect(queued).toHaveRedirect();
    const runPage = queued.headers.get("location")!;
    expect(runPage).toMatch(new RegExp(`^${PAGE}/runs/\\d+$`));
    await expect(queued).toSendToast({ type: "success", description: "Run started in stage" });
    const runId = runPage.split("/").pop()!;
    const run = await until(
      "the run to finish",
      async () => {
        const data = await loadRun(runPage, runId, viewer);
        return data.run.status === "done" && data.run;
      },
      30_000,
    );
    expect(run).toMatchObject({ environment: "stage", trigger: "manual", total: 4, passed: expect.any(Number) });
    expect(run.results).toHaveLength(4);
    expect((await load()).runs[0]).toMatchObject({ id: Number(runId), status: "done" });
  });

  it("refuses a run in an environment it does not know", async () => {
    expect((await post({ intent: "run", environment: "live" })).status).toBe(400);
  });

  it("starts no run of an agent without test questions, saying so, rather than a run that passes having asked nothing", async () => {
    const page = "/northfield/agent/studentsuccess/controls/test-questions";
    const other = { agentName: "studentsuccess" };
    const runs = async () => (await loaderJson(screen.loader, args(getRequest(page, admin), other))).runs;
    const before = await runs();
    const refused = await settle(() =>
      screen.action(args(formRequest(page, { intent: "run", environment: "stage" }, admin), other)),
    );
    expect(refused.headers.get("location")).toBe(page);
    await expect(refused).toSendToast({
      type: "error",
      description: "This agent has no test questions to run: add one first",
    });
    expect(await runs()).toEqual(before);
  });

  it("answers 404 for a run of another client, or a malformed run id", async () => {
    const runId = String((await load()).runs[0].id);
    const elsewhere = await settle(() =>
      runRoute.loader(
        args(getRequest(`/shopharbor-outfitters/controls/test-questions/runs/${runId}`, admin), {
          appName: "shopharbor-outfitters",
          agentName: undefined as unknown as string,
          runId,
        }),
      ),
    );
    expect(elsewhere.status).toBe(404);
    expect(
      (await settle(() => runRoute.loader(args(getRequest(`${PAGE}/runs/1e9`, admin), { runId: "1e9" })))).status,
    ).toBe(404);
    // At client level, the run of an agent under another trigger point than the one chosen.
    const clientLevel = (triggerPoint: string) =>
      settle(() =>
        runRoute.loader(
          args(getRequest(`/northfield/controls/test-questions/runs/${runId}?trigger_point=${triggerPoint}`, admin), {
            agentName: undefined as unknown as string,
            runId,
          }),
        ),
      );
    expect((await clientLevel("studentsuccess")).status).toBe(404);
    expect((await clientLevel("admissions")).status).toBe(200);
  });

  it("Run in stage starts the run an automatic one waiting for its minute would have been, at once", async () => {
    const runPageOf = async (response: Response) => {
      expect(response).toHaveRedirect();
      const runPage = response.headers.get("location")!;
      return { runPage, runId: runPage.split("/").pop()! };
    };
    const finished = (runPage: string, runId: string, timeoutMs: number) =>
      until(
        `run ${runId} to finish`,
        async () => {
          const data = await loadRun(runPage, runId);
          return data.run.status === "done" && data.run;
        },
        timeoutMs,
      );
    const first = await runPageOf(await post({ intent: "run", environment: "stage" }));
    await finished(first.runPage, first.runId, 30_000);
    // A change to the agent just after that run: its automatic run waits out the rest of the minute.
    const call = apiCaller(host);
    const token = (await signInAs(host, "client.admin@example.com")).user_token;
    const appId = (await load()).client.id;
    const saved = await call("PUT", "/v1/controls", {
      token,
      body: {
        app_id: appId,
        controls: [
          {
            app_id: appId,
            trigger_point: "admissions",
            internal_name: "ai_personality_guidelines",
            prompt_input_raw: "Brief.",
          },
        ],
      },
    });
    expect(saved.status).toBe(200);
    // (Production had no run yet: its run started at once.)
    const waiting = (await load()).runs.find((run: { environment: string }) => run.environment === "stage");
    expect(waiting).toMatchObject({ status: "queued", trigger: "controls saved" });

    const started = await post({ intent: "run", environment: "stage" });
    await expect(started).toSendToast({ type: "success", description: "Run started in stage" });
    const second = await runPageOf(started);
    expect(Number(second.runId)).toBe(waiting.id);
    expect(await finished(second.runPage, second.runId, 15_000)).toMatchObject({
      trigger: "controls saved, started by hand",
      total: 4,
    });
  });

  it("lets a client user read the questions and runs but change nothing", async () => {
    expect((await load("", viewer)).questions.length).toBeGreaterThan(0);
    const writes: Record<string, string>[] = [
      { intent: "add", question: "Q?", expect_text: "x" },
      { intent: "run", environment: "stage" },
      { intent: "delete", id: "1" },
    ];
    for (const fields of writes) {
      expect((await post(fields, viewer)).status).toBe(403);
    }
    expect((await csvPost("question,expect_text\nQ?,x\n", viewer)).status).toBe(403);
  });

  it("refuses an unknown intent with 400", async () => {
    expect((await post({ intent: "launch" })).status).toBe(400);
  });

  describe("questions added past the first page", () => {
    // Another agent's screen, so the questions added here change no run of the tests above.
    const other = "/northfield/agent/studentsuccess/controls/test-questions";
    const otherArgs = (request: Request) => ({ ...args(request), params: { ...params, agentName: "studentsuccess" } });
    const loadOther = (search = "") => loaderJson(screen.loader, otherArgs(getRequest(`${other}${search}`, admin)));
    const importToOther = (search: string, questions: string[]) => {
      const body = new FormData();
      body.append("intent", "import");
      const csv = `question,expect_text\n${questions.map((q) => `${q},yes\n`).join("")}`;
      body.append("file", new File([csv], "questions.csv", { type: "text/csv" }));
      const request = new Request(`http://localhost${other}${search}`, {
        method: "POST",
        body,
        headers: { cookie: admin },
      });
      return settle(() => screen.action(otherArgs(request)));
    };
    const shownAt = async (search: string) =>
      (await loadOther(search)).questions.map((q: { question: string }) => q.question);

    it("shows a question added at the last page, without the search or sort that would hide it", async () => {
      expect((await loadOther()).paging.total).toBe(0);
      const ten = Array.from({ length: 10 }, (_, i) => `Question ${i + 1} of ten?`);
      await expect(await importToOther("", ten)).toSendToast({
        type: "success",
        description: "10 test questions imported",
      });

      const view = "?search=ten&sort=question&order=desc&page_size=10&page=1";
      const fields = { intent: "add", question: "Which hall is quietest?", expect_text: "Maple" };
      const added = await settle(() => screen.action(otherArgs(formRequest(`${other}${view}`, fields, admin))));
      await expect(added).toSendToast({ type: "success", description: "Test question added" });
      expect(added).toHaveRedirect(`${other}?page_size=10&page=2`);
      expect(await shownAt("?page_size=10&page=2")).toEqual(["Which hall is quietest?"]);
    });

    it("shows an import at the page holding its first question", async () => {
      const imported = await importToOther("?page_size=10&search=hall", ["Twelfth?", "Thirteenth?"]);
      expect(imported).toHaveRedirect(`${other}?page_size=10&page=2`);
      expect(await shownAt("?page_size=10&page=2")).toEqual(["Which hall is quietest?", "Twelfth?", "Thirteenth?"]);
      const nine = Array.from({ length: 9 }, (_, i) => `More ${i + 1}?`);
      expect(await importToOther("?page_size=10", nine)).toHaveRedirect(`${other}?page_size=10&page=2`);
      expect(await importToOther("?page_size=10", ["Twenty-third?"])).toHaveRedirect(`${other}?page_size=10&page=3`);
    });

    it("shows the last page for a page past the end, once its last question is deleted", async () => {
      const view = "?page_size=10&page=3";
      const lastPage = (await loadOther(view)).questions;
      expect(lastPage.map((q: { question: string }) => q.question)).toEqual(["More 8?", "More 9?", "Twenty-third?"]);
      for (const { id } of lastPage) {
        const deleted = await settle(() =>
          screen.action(otherArgs(formRequest(`${other}${view}`, { intent: "delete", id: String(id) }, admin))),
        );
        expect(deleted).toHaveRedirect(`${other}${view}`);
      }
      const shown = await loadOther(view);
      expect(shown.paging).toMatchObject({ page: 2, totalPages: 2, total: 20 });
      expect(shown.questions).toHaveLength(10);
      expect(shown.questions.at(-1)?.question).toBe("More 7?");
    });
  });
});

describe("Test Questions of the client's own trigger points", () => {
  const loadAtClient = (search = ""): Promise<Awaited<ReturnType<typeof load>>> =>
    loaderJson(screen.loader, {
      request: getRequest(`/northfield/controls/test-questions${search}`, admin),
      context: testContext(host),
      params: { appName: "northfield" },
    });

  it("lists under Default only Default's questions and runs, not an agent's", async () => {
    const added = await post({
      intent: "add",
      question: "When does the library open?",
      expect_source: "",
      expect_text: "8 am",
      expect_outcome: "",
    });
    await expect(added).toSendToast({ type: "success", description: "Test question added" });
    expect(await post({ intent: "run", environment: "stage" })).toHaveRedirect();
    const atAgent = await load();
    expect(atAgent.paging.total).toBeGreaterThan(0);
    expect(atAgent.runs.length).toBeGreaterThan(0);
    // An address naming no trigger point is Default's; one the client does not have is not found.
    for (const search of ["", "?trigger_point="]) {
      const atDefault = await loadAtClient(search);
      expect(atDefault.choice.triggerPoint).toBe("");
      for (const question of atDefault.questions) expect(question.trigger_point).toBe("");
      for (const run of atDefault.runs) expect(run.trigger_point).toBe("");
      expect(atDefault.questions.map((q: { id: number }) => q.id)).not.toContain(atAgent.questions[0].id);
    }
    const unknown = await settle(() =>
      screen.loader({
        request: getRequest("/northfield/controls/test-questions?trigger_point=no-such-point", admin),
        context: testContext(host),
        params: { appName: "northfield" },
      }),
    );
    expect(unknown.status).toBe(404);
  });
});

describe("a question of another agent", () => {
  const postAt = (page: string, pageParams: Record<string, string>, fields: Record<string, string>) =>
    settle(() =>
      screen.action({ request: formRequest(page, fields, admin), context: testContext(host), params: pageParams }),
    );
  const screens = [
    [
      "/northfield/agent/studentsuccess/controls/test-questions",
      { appName: "northfield", agentName: "studentsuccess" },
    ],
    ["/northfield/controls/test-questions", { appName: "northfield" }],
  ] as const;

  it("is answered as one that does not exist, changed and deleted by neither another agent's screen nor Default's", async () => {
    await post({ intent: "add", question: "When is the admissions deadline?", expect_text: "January 1" });
    const [question] = (await load("?search=admissions%20deadline")).questions;
    const edit = { question: "Moved?", expect_source: "", expect_text: "January 15", expect_outcome: "answered" };
    for (const [page, pageParams] of screens) {
      for (const intent of ["update", "delete"]) {
        const missing = await postAt(page, pageParams, { intent, id: "99999999", ...edit });
        const refused = await postAt(page, pageParams, { intent, id: String(question.id), ...edit });
        expect(refused.status).toBe(missing.status);
        expect(await refused.text()).toBe(await missing.text());
        expect(refused.headers.get("location")).toBe(missing.headers.get("location"));
      }
    }
    expect((await load("?search=admissions%20deadline")).questions).toEqual([question]);

    // With the agent's trigger point chosen, the client's screen is that agent's.
    const chosen = await postAt("/northfield/controls/test-questions?trigger_point=admissions", screens[1][1], {
      intent: "delete",
      id: String(question.id),
    });
    await expect(chosen).toSendToast({ type: "success", description: "Test question deleted" });
  });
});

describe("a question edited in two tabs", () => {
  /** What the edit form posts: the fields as typed, and the values it was loaded with. */
  const editPost = (id: number, loaded: Record<string, string>, typed: Record<string, string>) =>
    post({
      intent: "update",
      id: String(id),
      ...loaded,
      ...typed,
      ...Object.fromEntries(Object.entries(loaded).map(([field, value]) => [`loaded.${field}`, value])),
    });
  const opened = async (id: number) => (await load(`?edit=${id}`)).editing.values as Record<string, string>;
  const stored = async (id: number) =>
    ((await load("?search=tuition")).questions as { id: number }[]).find((q) => q.id === id);

  it("keeps what the other tab saved in a field this tab did not change", async () => {
    await post({ intent: "add", question: "How much is tuition?", expect_text: "fees page", expect_outcome: "" });
    const [{ id }] = (await load("?search=tuition")).questions;
    const tabA = await opened(id);
    const tabB = await opened(id);
    await expect(await editPost(id, tabA, { question: "How much is tuition a year?" })).toSendToast({
      type: "success",
      description: "Test question saved",
    });
    await expect(await editPost(id, tabB, { expect_text: "$9,000" })).toSendToast({
      type: "success",
      description: "Test question saved",
    });
    expect(await stored(id)).toMatchObject({ question: "How much is tuition a year?", expect_text: "$9,000" });
  });

  it("refuses a field both tabs changed differently, beside it, everything typed kept; saving again keeps this tab's", async () => {
    const [{ id }] = (await load("?search=tuition")).questions;
    const tabA = await opened(id);
    const tabB = await opened(id);
    await editPost(id, tabA, { question: "What does tuition cost?", expect_outcome: "answered" });
    const refused = await editPost(id, tabB, {
      question: "Tuition per year?",
      expect_source: "https://x.example/fees",
    });
    expect(refused.status).toBe(409);
    const data = await refused.json();
    expect(data).toMatchObject({
      intent: "update",
      id,
      fieldErrors: {
        question: ["Changed to “What does tuition cost?” since you opened this page; save again to keep yours"],
      },
      // What this tab typed stays; the outcome it did not touch is the other tab's.
      values: {
        question: "Tuition per year?",
        expect_source: "https://x.example/fees",
        expect_text: "$9,000",
        expect_outcome: "answered",
      },
      loaded: {
        question: "What does tuition cost?",
        expect_source: "",
        expect_text: "$9,000",
        expect_outcome: "answered",
      },
    });
    expect(Object.keys(data.fieldErrors)).toEqual(["question"]);
    expect(await stored(id)).toMatchObject({ question: "What does tuition cost?", expect_source: null });

    const again = await editPost(id, data.loaded, data.values);
    await expect(again).toSendToast({ type: "success", description: "Test question saved" });
    expect(await stored(id)).toMatchObject({
      question: "Tuition per year?",
      expect_source: "https://x.example/fees",
      expect_outcome: "answered",
    });
    await post({ intent: "delete", id: String(id) });
  });
});

describe("the production gate on Appearance's push", () => {
  const APPEARANCE = "/northfield/agent/admissions/appearance";
  const appearanceArgs = (request: Request) => ({ request, context: testContext(host), params });
  const push = (fields: Record<string, string>, search = "?confirm=push") =>
    settle(() =>
      appearance.action(appearanceArgs(formRequest(`${APPEARANCE}${search}`, { intent: "push", ...fields }, admin))),
    );
  /** A stage value of its own, so that a push has something to send. */
  const saveToStage = (launcherText: string) =>
    settle(() => appearance.action(appearanceArgs(formRequest(APPEARANCE, { launcher_text: launcherText }, admin))));
  let records: ReturnType<typeof testRunRecords>;
  let question: Awaited<ReturnType<ReturnType<typeof testRunRecords>["question"]>>;
  let stageRun: number;

  beforeAll(async () => {
    records = testRunRecords(host);
    question = await records.question(await records.appId("northfield"), "admissions", "Where is the campus?");
    await records.finishedRun(question, "prod", true);
    stageRun = await records.finishedRun(question, "stage", false);
    await saveToStage("Talk to admissions");
  });

  it("lists what stage fails that production passes on the push question", async () => {
    const confirmPage = await loaderJson(
      appearance.loader,
      appearanceArgs(getRequest(`${APPEARANCE}?confirm=push`, admin)),
    );
    expect(confirmPage.gate!.stage).toMatchObject({ id: stageRun, failed: 1 });
    expect(confirmPage.gate!.stage_fails_prod_passes).toEqual([
      { question_id: question.id, question: "Where is the campus?", reason: "text missing" },
    ]);
  });

  it("asks the operator to confirm again instead of pushing", async () => {
    const first = await push({});
    expect(first).toHaveRedirect(`${APPEARANCE}?confirm=push&failing=confirm`);
    await expect(first).toSendToast({
      type: "error",
      description: "Stage fails test questions that production passes: confirm again to push",
    });
  });

  it("takes no confirmation of another (older) run for one of this run", async () => {
    const stale = await push({ accept_failing: String(stageRun - 1) }, "?confirm=push&failing=confirm");
    expect(stale).toHaveRedirect(`${APPEARANCE}?confirm=push&failing=confirm`);
  });

  it("pushes once the operator confirms again for that run", async () => {
    const pushed = await push({ accept_failing: String(stageRun) }, "?confirm=push&failing=confirm");
    expect(pushed).toHaveRedirect(APPEARANCE);
    await expect(pushed).toSendToast({ type: "success", description: "Pushed to production" });
  });

  it("pushes on one confirmation once stage passes again", async () => {
    await records.finishedRun(question, "stage", true);
    // Something to push: production already shows what the push above sent.
    await saveToStage("Ask us");
    const clean = await push({});
    await expect(clean).toSendToast({ type: "success", description: "Pushed to production" });
  });

  it("pushes nothing, and says so, when production already shows stage's values", async () => {
    const again = await push({});
    expect(again).toHaveRedirect(APPEARANCE);
    await expect(again).toSendToast({
      type: "info",
      description: "Production already shows these values: nothing was pushed",
    });
  });
});
