import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";

const DASHBOARD = "/backoffice/northfield/dashboard";
const PROFILES = "/backoffice/northfield/user_profiles";
const toast = (page: Page) => page.getByTestId("toast");

/** Deletes a test question a journey added, so the agent's runs stay as other journeys expect. */
async function removeTestQuestion(request: APIRequestContext, triggerPoint: string, question: string) {
  const signedIn = await request.post("/auth/dev", { data: { email: "admin@example.com" } });
  const headers = { authorization: `Bearer ${((await signedIn.json()) as { user_token: string }).user_token}` };
  const apps = await request.get("/v1/apps?status=active", { headers });
  const appId = ((await apps.json()) as { apps: { id: number; url_code: string }[] }).apps.find(
    (a) => a.url_code === "northfield",
  )!.id;
  const listed = await request.get(`/v1/apps/${appId}/test_questions?trigger_point=${triggerPoint}`, { headers });
  const kept = ((await listed.json()) as { data: { id: number; question: string }[] }).data.find(
    (row) => row.question === question,
  );
  expect(kept).toBeTruthy();
  expect((await request.delete(`/v1/apps/${appId}/test_questions/${kept!.id}`, { headers })).ok()).toBe(true);
}

/** A visitor's conversation through the public chat endpoint, as the widget holds it; answers its id. */
async function converse(request: APIRequestContext, messages: string[], triggerPoint = "admissions") {
  const signedIn = await request.post("/auth/dev", { data: { email: "admin@example.com" } });
  const token = ((await signedIn.json()) as { user_token: string }).user_token;
  const apps = await request.get("/v1/apps?status=active", { headers: { authorization: `Bearer ${token}` } });
  const appId = ((await apps.json()) as { apps: { id: number; url_code: string }[] }).apps.find(
    (a) => a.url_code === "northfield",
  )!.id;
  const install = await request.get(`/v1/bot_installs?app_id=${appId}&env=stage&app_name=${triggerPoint}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const key = ((await install.json()) as { key: string }).key;
  let conversation: string | undefined;
  for (const message of messages) {
    const answer = await request.post("/v1/chat", {
      data: { key, trigger_point: triggerPoint, message, conversation_id: conversation },
    });
    expect(answer.headers()["content-type"]).toContain("application/x-ndjson");
    const start = (await answer.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; conversation_id?: string })
      .find((e) => e.type === "start");
    conversation = start!.conversation_id;
  }
  return conversation!;
}

/** Tests share one server: each visitor has names and questions of their own. */
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe("with JavaScript", () => {
  // In order, in one worker: deleting a person deletes the client's reports that may quote
  // visitors, so the profile journey would take away the CSV the dashboard journey looks for.
  test.describe.configure({ mode: "default" });

  test("a question longer than a test question may be leads to its conversations, with no button that could only fail", async ({
    signedInPage: page,
  }) => {
    const id = unique();
    // One sentence of 1,100 characters or so: the chat takes 2,000, a test question 1,000.
    const long = `Is there a glimmerfrond ${id} ${"with quarblets ".repeat(72)}on campus?`;
    expect(long.length).toBeGreaterThan(1000);
    for (let ask = 0; ask < 3; ask++) await converse(page.request, [long]);
    await page.goto(DASHBOARD);
    const question = page
      .getByRole("region", { name: "Unanswered questions" })
      .getByRole("listitem")
      .filter({ hasText: `glimmerfrond ${id}` })
      .first();
    await expect(question).toContainText("Longer than a test question may be (1,000 characters)");
    await expect(question.getByRole("button", { name: /^Add as test question/ })).toHaveCount(0);
    await question.getByRole("link", { name: "its conversations" }).click();
    // The client's conversations (the dashboard shows every agent's), searched for it, where it went unanswered.
    await expect(page).toHaveURL(/\/northfield\/conversations\?search=Is\+there\+a\+glimmerfrond.*&outcome=fallback/);
    await expect(page.getByText(`glimmerfrond ${id}`).first()).toBeVisible();
  });

  test("a visitor's question of one long word stays inside its panels: the dashboard never scrolls sideways", async ({
    signedInPage: page,
  }) => {
    const id = unique();
    const word = `Quarbletfrond${id}${"x".repeat(1900)}`;
    for (let ask = 0; ask < 3; ask++) await converse(page.request, [`${word} when?`]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(DASHBOARD);
    await expect(page.getByRole("link", { name: new RegExp(`^Quarbletfrond${id}`) }).first()).toBeAttached();
    await expect(
      page
        .getByRole("region", { name: "Unanswered questions" })
        .getByText(`Quarbletfrond${id}`, { exact: false })
        .first(),
    ).toBeVisible();
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBe(0);
    // Unanswered, it is cut short (a few lines, where whole it took dozens); its conversations hold it whole.
    const unanswered = page
      .getByRole("region", { name: "Unanswered questions" })
      .getByText(`Quarbletfrond${id}`, { exact: false })
      .first();
    expect((await unanswered.boundingBox())!.height).toBeLessThan(160);
    // In Top questions' figures it wraps in its cell: the table fits its box, the counts beside it.
    const topQuestions = page.getByRole("region", { name: "Top questions" });
    await topQuestions.getByText("Show the figures").click();
    const figures = topQuestions.getByRole("table");
    const overflow = await figures.evaluate((table) => table.scrollWidth - table.parentElement!.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("Business Insights: totals, real SVG charts with tooltips, an unanswered question linking to the knowledge store, a chart's CSV", async ({
    signedInPage: page,
  }) => {
    const id = unique();
    await converse(page.request, [`Is there a zorbwheel ${id}?`, `Is there a zorbwheel ${id}?`]);
    // And one the demo site's pages answer, so that a page is cited.
    await converse(page.request, ["How much do housing and meals cost?"]);
    await page.goto(DASHBOARD);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Business Insights");
    await expect(page.getByRole("img", { name: /^Conversations per day: \d+ in all/ })).toBeVisible();
    const unanswered = page.getByRole("region", { name: "Unanswered questions" });
    const question = unanswered
      .getByRole("listitem")
      .filter({ hasText: `is there a zorbwheel ${id}` })
      .first();
    await expect(question).toContainText("(2×)");
    // Why, from the answer's trace: no page of the store was about it, so one is missing.
    await expect(question).toContainText("Why: retrieval found no passage for this question.");
    // The words of it no passage held: what the missing page would be about.
    await expect(question).toContainText(/No passage held .*“zorbwheel”\./);
    await expect(question.getByRole("link", { name: "Add the missing page in the knowledge store" })).toHaveAttribute(
      "href",
      "/northfield/agent/admissions/knowledge-store/websites",
    );
    // A page answers cited most links to it in the knowledge store.
    const cited = page
      .getByRole("region", { name: "Sources cited most" })
      .getByRole("link", { name: /\(the page in the knowledge store\)$/ })
      .first();
    await expect(cited).toHaveAttribute(
      "href",
      /^\/northfield\/agent\/admissions\/knowledge-store\/websites\/urls\?url=http/,
    );
    const citedUrl = new URL((await cited.getAttribute("href"))!, "http://console.test").searchParams.get("url")!;
    await expectNoSeriousAxeViolations(page);

    // With JavaScript a tooltip follows the pointer over a bar.
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await page.locator("[data-tip]").first().hover();
    await expect(page.locator("figure [role=presentation]").filter({ hasText: /conversations/ })).toBeVisible();

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download CSV of Unanswered questions" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^northfield-unanswered-questions-.*\.csv$/);
    await page.goto("/northfield/admin-downloads");
    await expect(page.locator("tr[data-file-type=insights_unanswered_questions]")).toBeVisible();

    await page.goto(DASHBOARD);
    await cited.click();
    await expect(page.getByRole("dialog").first().getByRole("link", { name: citedUrl, exact: true })).toBeVisible();
  });

  test("a listed question opens the conversations that asked it; an unanswered one, those it went unanswered in", async ({
    signedInPage: page,
  }) => {
    const id = unique();
    const question = `Is there a quillpark ${id}?`;
    // Asked three times, so it stands among the top ten however many questions other journeys ask.
    const conversation = await converse(page.request, [question, question, question]);
    await page.goto(DASHBOARD);
    await page
      .getByRole("region", { name: "Top questions" })
      .getByRole("link", { name: `${question} (the conversations that asked it)` })
      .click();
    await expect(page).toHaveURL(/^[^?]*\/northfield\/conversations\?search=Is\+there\+a\+quillpark/);
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue(question);
    const rows = page.getByRole("table", { name: "Conversations" }).getByRole("row");
    await expect(rows).toHaveCount(2);
    await rows
      .nth(1)
      .getByRole("link", { name: /^Open the conversation started/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/northfield/conversations/${conversation}\\?`));
    await expect(page.getByRole("list", { name: "Messages" }).getByRole("listitem").first()).toContainText(question);

    await page.goto(DASHBOARD);
    await page
      .getByRole("region", { name: "Unanswered questions" })
      .getByRole("listitem")
      .filter({ hasText: question })
      .getByRole("link", { name: `Read the conversations that asked ${question}` })
      .click();
    await expect(page).toHaveURL(/outcome=fallback/);
    await expect(page.getByLabel("Outcome", { exact: true })).toHaveValue("fallback");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText("3 fallback");
  });

  test("a visitor's question ending in a right-to-left override leaves the console's words after it as they read", async ({
    signedInPage: page,
  }) => {
    // The API refuses direction controls now; questions asked before it may still hold one. The
    // dashboard's data on its way to the page gets such a question.
    const question = `skatepark ${unique()}\u202E`;
    await page.goto(DASHBOARD);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await page.route(/[?&]_data=routes%2Fbackoffice\.%24urlCode\.dashboard/, async (route) => {
      const response = await route.fetch();
      const data = await response.json();
      data.insights.unanswered_questions.unshift({
        question,
        unanswered: 1,
        closest: [],
        fallback_reason: null,
        left_out: false,
        files_not_tagged: [],
        trigger_point: "",
        asked_as: question,
        lacked_words: [],
        pages: [],
      });
      await route.fulfill({ response, json: data });
    });
    await page.getByRole("button", { name: "Apply" }).click();
    const gap = page
      .getByRole("region", { name: "Unanswered questions" })
      .getByRole("listitem")
      .filter({ hasText: "skatepark" });
    const [asked, times, button] = await Promise.all([
      gap.locator("strong").boundingBox(),
      gap.getByText("(1×)").boundingBox(),
      gap.getByRole("button", { name: /^Add as test question/ }).boundingBox(),
    ]);
    // On one line, left to right as written: the question, then "(1×)", then the button.
    expect(button!.y).toBeLessThan(asked!.y + asked!.height);
    expect(times!.x).toBeGreaterThanOrEqual(asked!.x + asked!.width - 1);
    expect(button!.x).toBeGreaterThan(times!.x + times!.width - 1);
  });

  test("Back after applying other filters shows the filters of the figures shown", async ({ signedInPage: page }) => {
    await page.goto(`${DASHBOARD}?environment=stage`);
    const environment = page.getByLabel("Environment");
    await expect(environment).toHaveValue("stage");
    await environment.selectOption("prod");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/environment=prod/);
    await page.goBack();
    await expect(page).toHaveURL(/environment=stage/);
    await expect(environment).toHaveValue("stage");
  });

  test("User Profile Store: search, open a profile with its conversation, delete the person after the question", async ({
    signedInPage: page,
  }) => {
    const id = unique();
    await converse(page.request, [
      `My name is Mira and my email is mira.${id}@example.com`,
      "When do applications close?",
    ]);
    await page.goto(PROFILES);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("User Profile Store");
    await page.getByLabel("Search").fill(`mira.${id}`);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`search=mira.${id}`));
    const rows = page.getByRole("table", { name: "Profiles" }).locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`mira.${id}@example.com`);
    await expectNoSeriousAxeViolations(page);

    await rows.first().getByRole("link", { name: /^View/ }).click();
    const drawer = page.getByRole("dialog");
    await expect(drawer.getByRole("list", { name: "Conversation" }).getByRole("listitem")).toHaveCount(4);
    await expect(drawer).toContainText("email +30");
    await expectNoSeriousAxeViolations(page);
    // The profile and the transcript lead to each other: one for what the visitor said of
    // themselves, the other for what they were told and why.
    await drawer.getByRole("link", { name: "Read it in Conversations" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Conversation of /);
    await expect(
      page.locator("p", { hasText: `My name is Mira and my email is mira.${id}@example.com` }),
    ).toBeVisible();
    await page.getByRole("link", { name: "the visitor's profile" }).click();
    await expect(drawer.getByRole("list", { name: "Conversation" }).getByRole("listitem")).toHaveCount(4);
    // The question opens in the link's place with Cancel focused; Cancel gives the focus back to the link.
    await drawer.getByRole("link", { name: "Delete this person's data" }).click();
    await expect(drawer.getByRole("link", { name: "Cancel" })).toBeFocused();
    await drawer.getByRole("link", { name: "Cancel" }).click();
    await expect(drawer.getByRole("link", { name: "Delete this person's data" })).toBeFocused();
    await drawer.getByRole("link", { name: "Delete this person's data" }).click();
    await drawer.getByRole("button", { name: "Delete everything about this person" }).click();
    await expect(toast(page)).toContainText("Deleted the person's profile and conversation");
    await page.goto(`${PROFILES}?search=mira.${id}`);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("No profiles match.");
  });

  test("a client user reads Business Insights without the buttons that would write: no Download CSV, no Add as test question", async ({
    page,
  }) => {
    const id = unique();
    // Asked three times, so it stands among the list's first ten whatever else journeys asked.
    await converse(
      page.request,
      Array.from({ length: 3 }, () => `Is there a skybridge ${id}?`),
    );
    await signIn(page, "client.user@example.com");
    await page.goto(DASHBOARD);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Business Insights");
    // As the visitor worded it, not as repeats are counted (lower-cased, without the "?").
    await expect(page.getByRole("region", { name: "Unanswered questions" })).toContainText(
      `Is there a skybridge ${id}?`,
    );
    await expect(page.getByRole("button", { name: /^Download CSV/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Add as test question/ })).toHaveCount(0);
    // Nor links to changes they may not make in the knowledge store.
    const unanswered = page.getByRole("region", { name: "Unanswered questions" });
    await expect(unanswered.getByRole("link", { name: /Add the missing page|Index it again/ })).toHaveCount(0);
    // Reading what visitors were told is theirs too.
    await unanswered
      .getByRole("link", { name: `Read the conversations that asked Is there a skybridge ${id}?` })
      .click();
    await expect(page.getByRole("table", { name: "Conversations" }).getByRole("row")).toHaveCount(2);
  });

  test("a client user may look at profiles but not delete them", async ({ page }) => {
    const id = unique();
    await converse(page.request, [`my email is viewer.${id}@example.com`, "When do applications close?"]);
    await signIn(page, "client.user@example.com");
    await page.goto(`${PROFILES}?search=viewer.${id}`);
    await page.getByRole("link", { name: /^View/ }).click();
    await expect(page.getByRole("dialog")).toContainText(`viewer.${id}@example.com`);
    // One question asked (the email alone is small talk): "1 question", not "1 questions".
    await expect(page.getByRole("dialog")).toContainText(/ · 1 question · /);
    await expect(page.getByRole("dialog")).toContainText("Assistant (small talk)");
    await expect(page.getByRole("link", { name: "Delete this person's data" })).toHaveCount(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("at 1280 px the charts read at the page's text sizes, and a lead's reasons wrap between reasons", async ({
    signedInPage: page,
  }) => {
    const id = unique();
    const email = `rowan.${id}@example.com`;
    await converse(page.request, [`${email}, (555) 010-2233. Is there a library?`, "Where is it?"], "studentsuccess");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${DASHBOARD}?triggerPoint=studentsuccess`);
    // A ranked list's labels are the page's text, not a drawing scaled down to its panel.
    const ranked = page.getByRole("list", { name: "The questions asked most" }).getByRole("listitem").first();
    await expect(ranked).toBeVisible();
    expect(await ranked.evaluate((item) => parseFloat(getComputedStyle(item).fontSize))).toBeGreaterThanOrEqual(13);
    // The day axis's labels, as drawn: at least 9 pixels high on the screen.
    const dayLabel = page
      .getByRole("img", { name: /^Conversations per day/ })
      .locator("text")
      .last();
    expect((await dayLabel.boundingBox())!.height).toBeGreaterThanOrEqual(9);
    // "phone +20" is never cut between its words: each reason stands on one line.
    const reasons = page
      .getByRole("table", { name: "Top leads" })
      .getByRole("row")
      .filter({ hasText: email })
      .getByRole("cell")
      .last()
      .locator("span");
    await expect(reasons.filter({ hasText: "phone +20" })).toHaveCount(1);
    for (const reason of await reasons.all()) expect((await reason.boundingBox())!.height).toBeLessThan(24);
  });

  test("the dashboard's filters and the store's search work through plain GET forms; the charts are there", async ({
    signedInPage: page,
  }) => {
    const id = unique();
    await converse(page.request, [`my email is nojs.${id}@example.com`, `Any glorptastic ${id}?`], "studentsuccess");
    await page.goto(DASHBOARD);
    await page.getByLabel("Trigger point").selectOption("studentsuccess");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/triggerPoint=studentsuccess/);
    await expect(page.getByRole("region", { name: "Top questions" })).toContainText(`Any glorptastic ${id}?`);
    await expect(page.locator("svg[role=img] rect[data-tip]").first()).toBeAttached();
    // The question links to the conversations of the agent shown that asked it.
    const asked = page
      .getByRole("region", { name: "Top questions" })
      .getByRole("link", { name: `Any glorptastic ${id}? (the conversations that asked it)` });
    await expect(asked).toHaveAttribute(
      "href",
      new RegExp(`^/northfield/agent/studentsuccess/conversations\\?search=Any\\+glorptastic\\+${id}%3F&`),
    );
    await asked.click();
    const listed = page.getByRole("table", { name: "Conversations" }).getByRole("row");
    await expect(listed).toHaveCount(2);
    await expect(listed.nth(1)).toContainText(`Any glorptastic ${id}?`);
    await page.goBack();
    // A question too long for the chart's label is there whole in its figures, with its counts.
    const topQuestions = page.getByRole("region", { name: "Top questions" });
    await topQuestions.getByText("Show the figures").click();
    await expect(
      topQuestions
        .getByRole("row")
        .filter({ hasText: `Any glorptastic ${id}?` })
        .getByRole("cell"),
    ).toHaveText([`Any glorptastic ${id}?`, "1", "1"]);
    // An action on an unanswered question comes back to it, not to the page's top.
    const gap = page
      .getByRole("region", { name: "Unanswered questions" })
      .getByRole("listitem")
      .filter({ hasText: `Any glorptastic ${id}?` });
    await gap.getByRole("button", { name: /^Add as test question/ }).click();
    await expect(page).toHaveURL(/triggerPoint=studentsuccess[^#]*#gap-\d+$/);
    await expect(page.getByTestId("toast")).toContainText("Added as a test question of");
    await expect(gap).toBeInViewport();
    await removeTestQuestion(page.request, "studentsuccess", `Any glorptastic ${id}?`);
    // A reversed range is said by the dates.
    await page.getByLabel("From", { exact: true }).fill("2026-05-02");
    await page.getByLabel("To", { exact: true }).fill("2026-05-01");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByRole("alert")).toContainText("The start date must not be after the end date");

    await page.goto(PROFILES);
    await page.getByLabel("Search").fill(`nojs.${id}`);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByRole("table", { name: "Profiles" }).locator("tbody tr")).toHaveCount(1);
    const csv = await page.request.get(`${PROFILES}/export?search=nojs.${id}`);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect(await csv.text()).toContain(`nojs.${id}@example.com`);
  });
});
