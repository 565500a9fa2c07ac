import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  settle,
  signInToConsole,
  testContext,
  toastOf,
} from "../../tests/support/console-context";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";
import * as screen from "./$appName.agent.$agentName.controls.test-questions";
import * as exportRoute from "./$appName.agent.$agentName.controls.test-questions_.export";
import * as runRoute from "./$appName.agent.$agentName.controls.test-questions_.runs.$runId";
import * as appearance from "./$appName.agent.$agentName.appearance";
import { testRunRecords } from "../../tests/support/test-runs";

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
async function load(search = "", cookie = admin): Promise<any> {
  const response = await settle(() => screen.loader(args(getRequest(`${PAGE}${search}`, cookie))));
  expect(response.status).toBe(200);
  return response.json();
}
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
  it("adds a question, and a refused one comes back with what was typed and the message beside its field", async () => {
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
    expect(added.status).toBe(302);
    expect(added.headers.get("location")).toBe(PAGE);
    expect((await toastOf(added))?.description).toBe("Test question added");
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

  it("opens a question for editing through ?edit=, saves the change and deletes it", async () => {
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

    const saved = await post({
      intent: "update",
      id: String(question.id),
      question: "Where do first-year students live?",
      expect_source: "",
      expect_text: "Lakeside",
      expect_outcome: "",
    });
    expect((await toastOf(saved))?.description).toBe("Test question saved");
    expect((await load()).questions[0]).toMatchObject({
      id: question.id,
      question: "Where do first-year students live?",
      expect_text: "Lakeside",
      expect_outcome: null,
    });

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

    expect((await post({ intent: "delete", id: "abc" })).status).toBe(404);
    expect((await post({ intent: "update", id: "99999999", question: "Q?", expect_text: "x" })).status).toBe(404);
    const deleted = await post({ intent: "delete", id: String(question.id) });
    expect((await toastOf(deleted))?.description).toBe("Test question deleted");
    expect((await load()).questions).toEqual([]);
  });

  it("imports a CSV (all rows or none, a refused row named by its line) and exports one that imports back", async () => {
    const bad = await csvPost(
      "question,expect_text,expect_outcome\nWhen do tours leave?,10 am,\nNothing expected?,,\n",
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).importErrors).toEqual([
      "Row 3, expect_text: Say what the answer must do: a source, a text or an outcome",
    ]);
    expect((await load()).paging.total).toBe(0);
    expect((await (await csvPost("text\nhello\n")).json()).importErrors[0]).toMatch(
      /^The first row must name the columns/,
    );
    expect((await (await csvPost("")).json()).importErrors).toEqual(["Choose a CSV file to import."]);
    expect((await (await csvPost("\n ,\n")).json()).importErrors).toEqual([
      "The file is empty: it needs a header row and a row per question.",
    ]);

    const csv =
      'Expect_Outcome,Question,Expect_Text\r\nFallback,What is the weather on Mars?,\r\nanswered,"Tours, when?",=10 am\r\n';
    const imported = await csvPost(csv);
    expect((await toastOf(imported))?.description).toBe("2 test questions imported");
    const exported = await settle(() => exportRoute.loader(args(getRequest(`${PAGE}/export`, admin))));
    expect(exported.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(exported.headers.get("content-disposition")).toBe('attachment; filename="test_questions_admissions.csv"');
    const text = await exported.text();
    expect(text).toBe(
      'question,expect_source,expect_text,expect_outcome\r\nWhat is the weather on Mars?,,,fallback\r\n"Tours, when?",,\'=10 am,answered\r\n',
    );
    // What was exported reads back the same (the formula guard's apostrophe dropped).
    await csvPost(text);
    const rows = (await load("?sort=question&page_size=10")).questions.map(
      (q: { question: string; expect_text: string | null }) => [q.question, q.expect_text],
    );
    expect(rows).toEqual([
      ["Tours, when?", "=10 am"],
      ["Tours, when?", "=10 am"],
      ["What is the weather on Mars?", null],
      ["What is the weather on Mars?", null],
    ]);
    expect((await load("?search=Mars")).paging.total).toBe(2);
  });

  it("queues a run and shows it, with its progress and results, on its own page", async () => {
    const queued = await post({ intent: "run", environment: "stage" });
    expect(queued.status).toBe(302);
    const runPage = queued.headers.get("location")!;
    expect(runPage).toMatch(new RegExp(`^${PAGE}/runs/\\d+$`));
    expect((await toastOf(queued))?.description).toBe("Run started in stage");
    const runId = runPage.split("/").pop()!;
    const run = await until(
      "the run to finish",
      async () => {
        const response = await settle(() => runRoute.loader(args(getRequest(runPage, viewer), { runId })));
        const data = await response.json();
        return data.run.status === "done" && data.run;
      },
      30_000,
    );
    expect(run).toMatchObject({ environment: "stage", trigger: "manual", total: 4, passed: expect.any(Number) });
    expect(run.results).toHaveLength(4);
    expect((await load()).runs[0]).toMatchObject({ id: Number(runId), status: "done" });

    expect((await post({ intent: "run", environment: "live" })).status).toBe(400);
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
  });

  it("Run in stage starts the run an automatic one waiting for its minute would have been, at once", async () => {
    const runPageOf = async (response: Response) => {
      expect(response.status).toBe(302);
      const runPage = response.headers.get("location")!;
      return { runPage, runId: runPage.split("/").pop()! };
    };
    const finished = (runPage: string, runId: string, timeoutMs: number) =>
      until(
        `run ${runId} to finish`,
        async () => {
          const data = await (await settle(() => runRoute.loader(args(getRequest(runPage, admin), { runId })))).json();
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
    expect((await toastOf(started))?.description).toBe("Run started in stage");
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
    expect((await post({ intent: "launch" })).status).toBe(400);
  });
});

describe("the production gate on Appearance's push", () => {
  const APPEARANCE = "/northfield/agent/admissions/appearance";
  const appearanceArgs = (request: Request) => ({ request, context: testContext(host), params });
  it("lists what stage fails that production passes, and pushes only once the operator confirms again for that run", async () => {
    const records = testRunRecords(host);
    const question = await records.question(await records.appId("northfield"), "admissions", "Where is the campus?");
    await records.finishedRun(question, "prod", true);
    const stageRun = await records.finishedRun(question, "stage", false);

    const confirmPage = await (
      await settle(() => appearance.loader(appearanceArgs(getRequest(`${APPEARANCE}?confirm=push`, admin))))
    ).json();
    expect(confirmPage.gate.stage).toMatchObject({ id: stageRun, failed: 1 });
    expect(confirmPage.gate.stage_fails_prod_passes).toEqual([
      { question_id: question.id, question: "Where is the campus?", reason: "text missing" },
    ]);

    const first = await settle(() =>
      appearance.action(appearanceArgs(formRequest(`${APPEARANCE}?confirm=push`, { intent: "push" }, admin))),
    );
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(`${APPEARANCE}?confirm=push&failing=confirm`);
    expect((await toastOf(first))?.description).toBe(
      "Stage fails test questions that production passes: confirm again to push",
    );

    // A confirmation of another (older) run is no confirmation of this one.
    const stale = await settle(() =>
      appearance.action(
        appearanceArgs(
          formRequest(
            `${APPEARANCE}?confirm=push&failing=confirm`,
            { intent: "push", accept_failing: String(stageRun - 1) },
            admin,
          ),
        ),
      ),
    );
    expect(stale.headers.get("location")).toBe(`${APPEARANCE}?confirm=push&failing=confirm`);

    const pushed = await settle(() =>
      appearance.action(
        appearanceArgs(
          formRequest(
            `${APPEARANCE}?confirm=push&failing=confirm`,
            { intent: "push", accept_failing: String(stageRun) },
            admin,
          ),
        ),
      ),
    );
    expect(pushed.headers.get("location")).toBe(APPEARANCE);
    expect((await toastOf(pushed))?.description).toBe("Pushed to production");

    // Once stage passes again, one confirmation is enough.
    await records.finishedRun(question, "stage", true);
    const clean = await settle(() =>
      appearance.action(appearanceArgs(formRequest(`${APPEARANCE}?confirm=push`, { intent: "push" }, admin))),
    );
    expect((await toastOf(clean))?.description).toBe("Pushed to production");
  });
});
