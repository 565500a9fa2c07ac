import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, SAME_ORIGIN_POST, test } from "./fixtures";
import { apiAdmin } from "./api-admin";

/*
 * Test Questions, as an operator uses them: kept per agent beside Quality Check, imported and
 * exported as CSV, run in stage through the widget's own responder, each run on its own page.
 * Each test keeps to its own agent, so runs queued by other specs' changes do not meet its rows.
 */
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const toast = (page: Page) => page.getByTestId("toast");
const questionsTable = (page: Page) => page.getByRole("table", { name: "Test questions" });

/**
 * A new agent of Northfield with a test question, whose stage run finished a moment ago, and whose
 * next one, queued by a change to the agent, waits out the rest of that minute (the one-run-a-minute
 * rule for runs that changes queue). Answers the agent's test questions screen and the waiting run.
 */
async function agentWithAnAutomaticRunWaiting(request: APIRequestContext) {
  const { headers, appId } = await apiAdmin(request);
  const agent = `waits${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created = await request.post(`/v1/apps/${appId}/agents/update_agents`, {
    headers,
    data: { app_id: appId, name: `Agent ${agent}`, site_code: agent },
  });
  expect(created.ok()).toBe(true);
  const question = { trigger_point: agent, question: "Is there a velodrome on Mars?", expect_outcome: "fallback" };
  expect((await request.post(`/v1/apps/${appId}/test_questions`, { headers, data: question })).ok()).toBe(true);
  const stageRuns = async () => {
    const listed = await request.get(`/v1/apps/${appId}/test_runs?trigger_point=${agent}&environment=stage`, {
      headers,
    });
    return (await listed.json()).data as { id: number; status: string; trigger: string }[];
  };
  const started = await request.post(`/v1/apps/${appId}/test_runs`, {
    headers,
    data: { trigger_point: agent, environment: "stage" },
  });
  const { id: manualRun } = (await started.json()) as { id: number };
  // By its id: the list puts a run that waits for its minute first, and the question's addition may have queued one.
  await expect
    .poll(async () => (await stageRuns()).find((run) => run.id === manualRun)?.status, { timeout: 20_000 })
    .toBe("done");
  const saved = await request.put("/v1/controls", {
    headers,
    data: {
      app_id: appId,
      controls: [
        {
          app_id: appId,
          internal_name: "ai_personality_guidelines",
          prompt_input_raw: "Be brief.",
          trigger_point: agent,
        },
      ],
    },
  });
  expect(saved.ok()).toBe(true);
  const waiting = (await stageRuns()).find((run) => run.trigger === "controls saved");
  expect(waiting).toMatchObject({ status: "queued", trigger: "controls saved" });
  return { screen: `/northfield/agent/${agent}/controls/test-questions`, waitingRun: waiting!.id };
}

/** Run in stage opens the run that was waiting, which starts and finishes well before its minute is out. */
async function runInStageStartsTheWaitingRun(page: Page) {
  const { screen, waitingRun } = await agentWithAnAutomaticRunWaiting(page.request);
  await page.goto(screen);
  // The waiting run says when its minute is out, and has not started.
  const waitingRow = page
    .getByRole("table", { name: "Test runs" })
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: `View run ${waitingRun}` }) });
  await expect(waitingRow).toContainText(/queued, starts \d{2}:\d{2}:\d{2} UTC/);
  await expect(waitingRow.getByRole("cell").first()).toHaveText("not yet");
  await page.getByRole("button", { name: "Run in stage" }).click();
  await expect(page).toHaveURL(new RegExp(`/controls/test-questions/runs/${waitingRun}$`));
  // The address changes a moment before the run's page replaces the screen, whose runs table has
  // status chips of its own.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Test run ${waitingRun}`);
  // The waiting run had most of a minute left: done within 15 s, it did not wait for it.
  await expect(page.locator("[data-status=done]")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("controls saved, started by hand")).toBeVisible();
  await expect(page.getByText("1 of 1 question asked: 1 passed, 0 failed.")).toBeVisible();
}

/**
 * Two tabs open one question's edit form. A save changes only what its tab changed: the second
 * tab's Expected text does not bring back the Question the first tab changed; where both changed
 * the Expected text, the second is told so beside it, keeps what it typed, and wins when it saves again.
 */
async function twoTabsEditOneQuestion(page: Page) {
  const screen = "/northfield/agent/admissions/controls/test-questions";
  const question = unique("Is parking free");
  await page.goto(screen);
  await page.getByLabel("Question", { exact: true }).fill(`${question}?`);
  await page.getByLabel("Expected text").fill("Lot B");
  await page.getByRole("button", { name: "Add question" }).click();
  const row = questionsTable(page).getByRole("row").filter({ hasText: question });
  await expect(row).toContainText("Lot B");
  const openEditor = async (tab: Page) => {
    await tab.goto(`${screen}?search=${encodeURIComponent(question)}`);
    await questionsTable(tab)
      .getByRole("link", { name: /^Edit “/ })
      .click();
    await expect(tab.getByRole("heading", { name: "Change the test question" })).toBeVisible();
  };
  const save = (tab: Page) => tab.getByRole("button", { name: "Save question" }).click();
  const other = await page.context().newPage();
  await openEditor(page);
  await openEditor(other);

  await page.getByLabel("Question", { exact: true }).fill(`${question} for visitors?`);
  await save(page);
  await expect(row).toContainText(`${question} for visitors?`);
  await other.getByLabel("Expected text").fill("Lot C");
  await save(other);
  const otherRow = questionsTable(other).getByRole("row").filter({ hasText: question });
  await expect(otherRow).toContainText("Lot C");
  await expect(otherRow).toContainText(`${question} for visitors?`);

  await openEditor(page);
  await openEditor(other);
  await page.getByLabel("Question", { exact: true }).fill(`${question} for staff?`);
  await page.getByLabel("Expected text").fill("Lot D");
  await save(page);
  await expect(row).toContainText("Lot D");
  await other.getByLabel("Expected text").fill("Lot E");
  await save(other);
  await expect(other.getByLabel("Expected text")).toHaveAccessibleDescription(
    /Changed to “Lot D” since you opened this page; save again to keep yours/,
  );
  await expect(other.getByLabel("Expected text")).toHaveValue("Lot E");
  // The Question this tab left alone now shows what the other saved, so saving again keeps it.
  await expect(other.getByLabel("Question", { exact: true })).toHaveValue(`${question} for staff?`);
  await save(other);
  await expect(otherRow).toContainText("Lot E");
  await expect(otherRow).toContainText(`${question} for staff?`);
  await other.close();
}

test.describe("with JavaScript", () => {
  const PAGE = "/northfield/agent/admissions/controls/test-questions";

  test("Run in stage starts the run a change queued, without waiting for its minute", async ({
    signedInPage: page,
  }) => {
    await runInStageStartsTheWaitingRun(page);
    await expect(toast(page)).toContainText("Run started in stage");
  });

  test("a question is refused beside its field, added, changed and deleted; the hub links the screen", async ({
    signedInPage: page,
  }) => {
    await page.goto("/northfield/agent/admissions/controls");
    await page
      .getByRole("link", { name: /Test Questions/ })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Test Questions");
    await expectNoSeriousAxeViolations(page);

    const question = unique("Where do first-years live?");
    await page.getByLabel("Question", { exact: true }).fill(question);
    await page.getByRole("button", { name: "Add question" }).click();
    await expect(page.getByLabel("Expected text")).toHaveAccessibleDescription(/Say what the answer must do/);
    // The refused field takes focus, so the keyboard goes on from there, not from the page's top.
    await expect(page.getByLabel("Expected text")).toBeFocused();
    await expect(page.getByLabel("Question", { exact: true })).toHaveValue(question);

    await page.getByLabel("Expected text").fill("Lakeside Hall");
    await page.getByLabel("Expected outcome").selectOption({ label: "Answered" });
    await page.getByRole("button", { name: "Add question" }).click();
    await expect(toast(page)).toContainText("Test question added");
    const row = questionsTable(page).getByRole("row").filter({ hasText: question });
    await expect(row).toContainText("Lakeside Hall");
    await expect(row).toContainText("Answered");
    await expect(page.getByLabel("Question", { exact: true })).toHaveValue("");

    await row.getByRole("link", { name: `Edit “${question}”` }).click();
    await expect(page.getByRole("heading", { name: "Change the test question" })).toBeVisible();
    await expect(page.getByLabel("Question", { exact: true })).toHaveValue(question);
    await expect(page.getByLabel("Question", { exact: true })).toBeFocused();
    await page.getByLabel("Expected text").fill("Lakeside");
    await page.getByRole("button", { name: "Save question" }).click();
    await expect(toast(page)).toContainText("Test question saved");
    await expect(questionsTable(page).getByRole("row").filter({ hasText: question })).toContainText("Lakeside");
    await expect(page).not.toHaveURL(/edit=/);

    // Deleting asks first: a question cannot be brought back. Cancel keeps it.
    await questionsTable(page)
      .getByRole("link", { name: `Delete “${question}”` })
      .click();
    const asking = page.getByRole("form", { name: "Delete test question" });
    await expect(asking.getByRole("alert")).toHaveText(
      `Delete the test question “${question}”? It cannot be brought back.`,
    );
    await expect(asking).toBeFocused();
    await asking.getByRole("link", { name: "Cancel" }).click();
    await expect(asking).toHaveCount(0);
    await expect(questionsTable(page).getByRole("row").filter({ hasText: question })).toHaveCount(1);
    await questionsTable(page)
      .getByRole("link", { name: `Delete “${question}”` })
      .click();
    await asking.getByRole("button", { name: "Delete test question" }).click();
    await expect(toast(page)).toContainText("Test question deleted");
    await expect(page).not.toHaveURL(/delete=/);
    await expect(questionsTable(page).getByRole("row").filter({ hasText: question })).toHaveCount(0);
  });

  test("questions are imported from a CSV, searched, sorted, and exported back", async ({ signedInPage: page }) => {
    const SCREEN = "/northfield/agent/studentsuccess/controls/test-questions";
    const marker = unique("Imported");
    await page.goto(SCREEN);
    await page.getByLabel(/^CSV file/).setInputFiles({
      name: "questions.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        `question,expect_text,expect_outcome\n"${marker} b, when?",10 am,answered\n${marker} a?,,Fallback\n`,
      ),
    });
    await page.getByRole("button", { name: "Import CSV" }).click();
    await expect(toast(page)).toContainText("2 test questions imported");

    await page.getByRole("searchbox", { name: "Search questions" }).fill(marker);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/search=/);
    await expect(questionsTable(page).getByRole("row")).toHaveCount(3);
    await questionsTable(page).getByRole("link", { name: "Question" }).click();
    await expect(questionsTable(page).getByRole("row").nth(1)).toContainText(`${marker} a?`);
    await questionsTable(page).getByRole("link", { name: "Question" }).click();
    await expect(questionsTable(page).getByRole("row").nth(1)).toContainText(`${marker} b, when?`);

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe("test_questions_studentsuccess.csv");
    const text = await (
      await file.createReadStream()
    )
      .toArray()
      .then((chunks) => Buffer.concat(chunks).toString("utf8"));
    // UTF-8's byte order mark first, so a spreadsheet reads the file's accents as they are.
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(text.slice(1).split("\r\n")[0]).toBe("question,expect_source,expect_text,expect_outcome");
    expect(text).toContain(`"${marker} b, when?",,10 am,answered`);
    expect(text).toContain(`${marker} a?,,,fallback`);

    await page.getByLabel(/^CSV file/).setInputFiles({
      name: "bad.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("question,expect_text\nNothing expected?,\n"),
    });
    await page.getByRole("button", { name: "Import CSV" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Row 2, expect_text" })).toBeVisible();
  });

  test("a run in stage shows its progress, then every result, on its own page", async ({ signedInPage: page }) => {
    const SCREEN = "/northfield/agent/admissions/controls/test-questions";
    const question = unique("What is the weather on Mars");
    await page.goto(SCREEN);
    await page.getByLabel("Question", { exact: true }).fill(`${question}?`);
    await page.getByLabel("Expected outcome").selectOption({ label: "Fallback" });
    await page.getByRole("button", { name: "Add question" }).click();
    await expect(toast(page)).toContainText("Test question added");

    await page.getByRole("button", { name: "Run in stage" }).click();
    await expect(page).toHaveURL(/\/controls\/test-questions\/runs\/\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Test run \d+$/);
    await expect(page.getByText("Stage", { exact: true })).toBeVisible();
    // The page follows the run by itself until it is done; the run is a real job, queued behind the runs other
    // journeys' changes queue, so on a busy 2-core machine it can take half a minute.
    await expect(page.locator("[data-status=done]")).toBeVisible({ timeout: 45_000 });
    const result = page.getByRole("table", { name: "Results" }).getByRole("row").filter({ hasText: question });
    await expect(result).toContainText("Passed");
    await expect(result).toContainText("Fallback");
    // Why the fallback: the words of the question no page of the store holds.
    await expect(result).toContainText(/No passage held .*“mars”/);
    await expectNoSeriousAxeViolations(page);

    const runId = /\/runs\/(\d+)$/.exec(page.url())![1];
    await page.getByRole("link", { name: "← Test Questions" }).click();
    // The agent's changes made by other specs queue runs of their own: this run's row, wherever it is.
    const runRow = page
      .getByRole("table", { name: "Test runs" })
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name: `View run ${runId}` }) });
    await expect(runRow).toContainText("Stage");

    // The breadcrumb's "Runs" (an address with no page of its own) leads to the same list.
    await runRow.getByRole("link", { name: `View run ${runId}` }).click();
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Runs", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${SCREEN}#runs$`));
    await expect(page.getByRole("heading", { name: "Runs", level: 2 })).toBeInViewport();
    await expect(runRow).toContainText("Stage");
  });

  test("Appearance's push to production shows the agent's last stage and production runs", async ({
    signedInPage: page,
  }) => {
    // The question (and its runs) shows only when there is something to push: one setting of its own.
    const saved = await page.request.post("/northfield/agent/admissions/appearance", {
      form: { input_placeholder: `Ask admissions ${Date.now()}` },
      headers: SAME_ORIGIN_POST,
      maxRedirects: 0,
    });
    expect(saved.status()).toBe(302);
    await page.goto("/northfield/agent/admissions/appearance");
    await page.getByRole("link", { name: "Push to production" }).click();
    const gate = page.getByTestId("test-gate");
    await expect(gate).toContainText("Test questions");
    await expect(gate).toContainText(/Production: (no finished run yet|\d+ passed)/);
    await page.getByRole("form", { name: "Push to production" }).getByRole("link", { name: "No", exact: true }).click();
  });

  test("two tabs editing one question keep each other's changes", async ({ signedInPage: page }) => {
    await twoTabsEditOneQuestion(page);
  });

  test("a client user reads the questions and runs but finds nothing to change", async ({ page }) => {
    const { signIn } = await import("./fixtures");
    await signIn(page, "client.user@example.com");
    await page.goto("/northfield/agent/admissions/controls/test-questions");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Test Questions");
    await expect(page.getByRole("button", { name: "Add question" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Run in stage" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Run in stage starts the run a change queued, and the page reloads itself until it is done", async ({
    signedInPage: page,
  }) => {
    await runInStageStartsTheWaitingRun(page);
  });

  test("two tabs editing one question keep each other's changes", async ({ signedInPage: page }) => {
    await twoTabsEditOneQuestion(page);
  });

  test("a question is added and run, and the run page reloads itself until the run is done", async ({
    signedInPage: page,
  }) => {
    const SCREEN = "/northfield/controls/test-questions?trigger_point=admissions";
    const question = unique("Which planet has the velodrome");
    await page.goto(SCREEN);
    await page.getByLabel("Question", { exact: true }).fill(`${question}?`);
    await page.getByRole("button", { name: "Add question" }).click();
    await expect(page.getByText("Say what the answer must do: a source, a text or an outcome")).toBeVisible();
    await expect(page.getByLabel("Question", { exact: true })).toHaveValue(`${question}?`);
    await page.getByLabel("Expected outcome").selectOption({ label: "Fallback" });
    await page.getByRole("button", { name: "Add question" }).click();
    await expect(questionsTable(page).getByRole("row").filter({ hasText: question })).toBeVisible();

    await page.getByRole("button", { name: "Run in stage" }).click();
    await expect(page).toHaveURL(/\/northfield\/controls\/test-questions\/runs\/\d+\?trigger_point=admissions$/);
    await expect(page.locator("[data-status=done]")).toBeVisible({ timeout: 45_000 });
    await expect(
      page.getByRole("table", { name: "Results" }).getByRole("row").filter({ hasText: question }),
    ).toContainText("Passed");
  });
});
