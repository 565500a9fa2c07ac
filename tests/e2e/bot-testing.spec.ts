import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiAdmin } from "./api-admin";

const PAGE = "/northfield/agent/admissions/bot-testing";

/**
 * The widget's settings as the API gives them, with `changes()` over its appearance: a value saved
 * before a rule refused it, or one a screen cannot set (asked anew at each load of the widget).
 */
async function withAppearance(context: BrowserContext, changes: () => Record<string, unknown>) {
  await context.route(/\/v1\/widget\/config\?/, async (route) => {
    const answer = await route.fetch();
    const body = await answer.json();
    body.appearance = { ...body.appearance, ...changes() };
    await route.fulfill({ response: answer, json: body });
  });
}

/** The bundled demo site, indexed through the API (what an operator does with Index All on the Websites page). */
async function indexDemoSite(request: APIRequestContext) {
  const { headers, appId } = await apiAdmin(request);
  const websites = await (await request.get(`/v1/apps/${appId}/websites`, { headers })).json();
  const demo = websites.websites.find((w: { url: string }) => w.url.includes("/demo-site/"));
  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/apps/${appId}/websites`, { headers })).json()).websites.find(
          (w: { id: number }) => w.id === demo.id,
        ).status,
      { timeout: 60_000 },
    )
    .toBe("sitemap_generated");
  await request.post(`/v1/apps/${appId}/websites/${demo.id}/urls/update_status`, {
    headers,
    data: { status: "to_be_indexed" },
  });
  await expect
    .poll(
      async () => {
        const urls = await (
          await request.get(`/v1/apps/${appId}/websites/${demo.id}/urls?page_size=100`, { headers })
        ).json();
        return urls.data.every((u: { status: string }) => u.status === "indexed");
      },
      { timeout: 60_000 },
    )
    .toBe(true);
}

test("shows the agent's script per environment, copies it, and holds a conversation on the test page", async ({
  signedInPage: page,
  context,
}) => {
  // Early in a run the demo site is still being crawled: this journey waits for the crawl and the
  // indexing of every page (up to a minute each on a slow machine) before it starts, so it gets
  // three times the usual minute.
  test.slow();
  await indexDemoSite(page.request);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(PAGE);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("AI Testing");
  const script = page.getByTestId("bot-script");
  await expect(script).toContainText('data-environment="stage"');
  await expect(script).toContainText('data-trigger-point="admissions"');
  const stageScript = await script.textContent();

  const alerts: string[] = [];
  page.on("dialog", (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole("button", { name: "Copy Script" }).click();
  await expect.poll(() => alerts).toEqual(["Text copied to clipboard!"]);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(stageScript);

  await page.getByLabel("Environment", { exact: true }).selectOption("prod");
  await expect(script).toContainText('data-environment="prod"');
  await page.getByLabel("Environment", { exact: true }).selectOption("stage");
  await expect(script).toHaveText(stageScript!);

  const [testPage] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("link", { name: "Test Chatbot" }).click(),
  ]);
  await testPage.waitForLoadState();
  // The page as served carries the script byte for byte.
  expect(await (await page.request.get(testPage.url())).text()).toContain(stageScript!);
  // The launcher and the panel are named by the agent's Appearance, which the appearance journeys
  // save as this one runs (two operators save a launcher text of their own): they are found as the
  // widget's button and its dialog, named once the widget has its appearance.
  const widget = testPage.locator("[data-assistant-widget]");
  const launcher = widget.getByRole("button", { expanded: false });
  await expect(launcher).toHaveAccessibleName(/\S/);
  await launcher.click();
  const chat = widget.getByRole("dialog");
  await expect(chat).toBeVisible();
  const assistant = (await chat.getAttribute("aria-label"))!;
  expect(assistant).toMatch(/\S/);
  // The greeting opens the log (its text is whatever Appearance holds; other tests change it).
  await expect(chat.getByRole("log").locator(".row.bot .bubble").first()).not.toBeEmpty();
  await chat.getByLabel("Your message").fill("How many students does the nursing program admit?");
  await chat.getByLabel("Your message").press("Enter");
  await expect(chat.getByRole("log")).toContainText("The program admits 120 students each fall.", { timeout: 15_000 });
  await expect(chat.getByRole("list", { name: "Sources" }).getByRole("link").first()).toHaveAttribute(
    "href",
    /\/demo-site\/programs\/$/,
  );

  // The text box stops where the server does; control characters pasted with a question (which the
  // chat call refuses, and which show as nothing) become spaces or go, so the question is answered.
  await expect(chat.getByLabel("Your message")).toHaveAttribute("maxlength", "2000");
  await chat.getByLabel("Your message").fill("Is there a\u000bcampus tour?\u0007");
  await chat.getByLabel("Your message").press("Enter");
  await expect(chat.getByRole("log")).toContainText("Is there a campus tour?");
  await expect(chat.getByRole("log")).toContainText("Guided tours leave from Founders Hall", { timeout: 15_000 });
  await expect(chat.getByLabel("Your message")).toHaveValue("");
  // The log, read out, says who speaks: the visitor, then the assistant by its name. Only to a
  // screen reader: on screen the bubbles look as they did.
  await expect(chat.getByRole("log").locator(".row.user").last()).toHaveText("You: Is there a campus tour?");
  const answer = chat.getByRole("log").locator(".row.bot").last();
  await expect(answer).toContainText("Guided tours leave from Founders Hall");
  expect((await answer.textContent())!.slice(0, assistant.length + 2)).toBe(`${assistant}: `);
  const speakers = await chat.getByRole("log").locator(".row > span").all();
  expect(speakers.length).toBeGreaterThanOrEqual(4);
  for (const speaker of speakers) expect((await speaker.boundingBox())!.width).toBeLessThanOrEqual(1);

  // An input method's Enter confirms the word being composed and its Escape cancels it: neither sends nor closes.
  const rows = await chat.getByRole("log").locator(".row").count();
  await chat.getByLabel("Your message").fill("授業料");
  await chat
    .getByLabel("Your message")
    .dispatchEvent("keydown", { key: "Enter", isComposing: true, bubbles: true, cancelable: true });
  await chat
    .getByLabel("Your message")
    .dispatchEvent("keydown", { key: "Escape", isComposing: true, bubbles: true, cancelable: true });
  // Sending clears the box and adds the question to the log at once, in the key's own handler.
  await expect(chat).toBeVisible();
  await expect(chat.getByLabel("Your message")).toHaveValue("授業料");
  expect(await chat.getByRole("log").locator(".row").count()).toBe(rows);

  // A question in Arabic is typed and shown right to left; the English answer stays left to right.
  await chat.getByLabel("Your message").fill("هل الجامعة مفتوحة يوم السبت؟");
  expect(await chat.getByLabel("Your message").evaluate((input) => input.matches(":dir(rtl)"))).toBe(true);
  await chat.getByLabel("Your message").press("Enter");
  const asked = chat.getByRole("log").locator(".row.user .bubble").last();
  await expect(asked).toHaveText("هل الجامعة مفتوحة يوم السبت؟");
  expect(await asked.evaluate((bubble) => bubble.matches(":dir(rtl)"))).toBe(true);
  const answered = chat.getByRole("log").locator(".row.bot .bubble").last();
  await expect(answered).not.toBeEmpty({ timeout: 15_000 });
  expect(await answered.evaluate((bubble) => bubble.matches(":dir(ltr)"))).toBe(true);

  const results = await new AxeBuilder({ page: testPage }).include("[data-assistant-widget]").analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual(
    [],
  );

  // Escape closes the panel and gives focus back to the launcher.
  await chat.getByLabel("Your message").press("Escape");
  await expect(chat).toBeHidden();
  await expect(launcher).toBeFocused();
});

test("the test page's widget waits out a moment its settings cannot be read, showing no unnamed launcher meanwhile", async ({
  signedInPage: page,
  context,
}) => {
  // The first ask for the agent's settings meets the server unable to reach its data (a 503).
  let asked = 0;
  let firstRefused!: () => void;
  const refused = new Promise<void>((resolve) => (firstRefused = resolve));
  await context.route(/\/v1\/widget\/config\?/, async (route) => {
    asked += 1;
    if (asked > 1) return route.continue();
    await route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ message: "The service cannot reach its data just now; try again in a few seconds." }),
    });
    firstRefused();
  });
  await page.goto(PAGE);
  const [testPage] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("link", { name: "Test Chatbot" }).click(),
  ]);
  const widget = testPage.locator("[data-assistant-widget]");
  await refused;
  await expect(widget.getByRole("button")).toHaveCount(0);
  const launcher = widget.getByRole("button", { expanded: false });
  await expect(launcher).toHaveAccessibleName(/\S/, { timeout: 15_000 });
  expect(asked).toBe(2);
});

test("a question the assistant could not answer comes back into the message box, to send again", async ({
  signedInPage: page,
  context,
}) => {
  // The first question meets no network, the second an answer that fails on the way; the third goes through.
  let asked = 0;
  await context.route(/\/v1\/chat$/, async (route) => {
    asked += 1;
    if (asked === 1) return route.abort();
    if (asked === 2)
      return route.fulfill({
        status: 200,
        contentType: "application/x-ndjson; charset=utf-8",
        body:
          `${JSON.stringify({ type: "start", conversation_id: "8d0f7d52-4a39-4e43-9a35-6c0f8c1e2b11" })}\n` +
          `${JSON.stringify({ type: "error", message: "Sorry, something went wrong. Please try again." })}\n`,
      });
    return route.continue();
  });
  await page.goto(`${PAGE}/test-page?env=stage`);
  const launcher = page.locator("[data-assistant-widget] .launcher");
  await launcher.click();
  const chat = page.getByRole("dialog");
  const box = chat.getByLabel("Your message");
  const question = "When does the fall term start for transfer students?";
  await box.fill(question);
  await box.press("Enter");
  await expect(chat.getByText("Sorry, the assistant could not be reached. Please try again.")).toBeVisible();
  await expect(box).toHaveValue(question);
  await expect(box).toBeFocused();

  await box.press("Enter");
  await expect(chat.getByText("Sorry, something went wrong. Please try again.")).toBeVisible();
  await expect(box).toHaveValue(question);

  // An answer that arrives leaves the box empty, for the next question.
  await box.press("Enter");
  await expect(chat.getByRole("group", { name: "Rate this answer" })).toHaveCount(1, { timeout: 15_000 });
  await expect(box).toHaveValue("");
  expect(asked).toBe(3);
});

test("a thumbs down pressed again after a comment keeps the comment its box still shows", async ({
  signedInPage: page,
}) => {
  await page.goto(`${PAGE}/test-page?env=stage`);
  await page.locator("[data-assistant-widget] .launcher").click();
  const chat = page.getByRole("dialog");
  await chat.getByLabel("Your message").fill(`Is there a glimmerfrost lab ${Date.now().toString(36)} on campus?`);
  await chat.getByLabel("Your message").press("Enter");
  const rating = chat.getByRole("group", { name: "Rate this answer" });
  await expect(rating).toHaveCount(1, { timeout: 15_000 });
  const down = rating.getByRole("button", { name: "This answer did not help" });
  await down.click();
  const comment = rating.getByLabel("What was wrong? (optional)");
  await comment.fill("It does not say which building.");
  await rating.getByRole("button", { name: "Send comment" }).click();
  await expect(rating.getByRole("status")).toHaveText("Thank you for your feedback.");

  // Pressed again (to be sure, or after a thumbs up): the comment goes with it, as the box shows it.
  await rating.getByRole("button", { name: "This answer helped" }).click();
  await expect(rating.getByRole("status")).toHaveText("Thank you for your feedback.");
  const sent = page.waitForRequest((request) => request.url().endsWith("/v1/chat/feedback"));
  await down.click();
  const rated = (await sent).postDataJSON() as { conversation_id: string; message_id: number; comment?: string };
  expect(rated.comment).toBe("It does not say which building.");
  await expect(rating.getByRole("status")).toHaveText("Thank you for your feedback.");
  await expect(down).toHaveAttribute("aria-pressed", "true");

  // What the operator reads under the answer is that comment.
  const { user_token: token } = await (
    await page.request.post("/auth/dev", { data: { email: "admin@example.com" } })
  ).json();
  const headers = { authorization: `Bearer ${token}` };
  const apps = await (await page.request.get("/v1/apps?status=active", { headers })).json();
  const appId = apps.apps.find((a: { url_code: string }) => a.url_code === "northfield").id;
  const detail = await (
    await page.request.get(`/v1/apps/${appId}/conversations/${rated.conversation_id}`, { headers })
  ).json();
  const answer = detail.messages.find((m: { id: number }) => m.id === rated.message_id);
  expect([answer.rating, answer.comment]).toEqual(["down", "It does not say which building."]);
});

test("a blank name saved before blanks were refused leaves no unnamed launcher or panel", async ({
  signedInPage: page,
  context,
}) => {
  await withAppearance(context, () => ({ bot_name: "", launcher_text: "   " }));
  await page.goto(`${PAGE}/test-page?env=stage`);
  const launcher = page.locator("[data-assistant-widget] .launcher");
  await expect(launcher).toHaveAccessibleName("Chat");
  await launcher.click();
  await expect(page.getByRole("dialog", { name: "Assistant" })).toBeVisible();
});

test("on a phone-sized window, a panel far from the edge shrinks to stay whole, its close button on screen", async ({
  signedInPage: page,
  context,
}) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await withAppearance(context, () => ({ offset: 64, height: 720 }));
  await page.goto(`${PAGE}/test-page?env=stage`);
  await page.locator("[data-assistant-widget] .launcher").click();
  const panel = (await page.getByRole("dialog").boundingBox())!;
  expect(panel.y).toBeGreaterThanOrEqual(0);
  const close = (await page.getByRole("button", { name: "Close chat" }).boundingBox())!;
  expect(close.y).toBeGreaterThanOrEqual(0);
  await page.getByRole("button", { name: "Close chat" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
});

test("on a phone-sized window, a panel set far from the edge still takes nearly the whole width, on either side", async ({
  signedInPage: page,
  context,
}) => {
  let position = "bottom-right";
  await withAppearance(context, () => ({ offset: 64, width: 380, position }));
  for (const side of ["bottom-right", "bottom-left"]) {
    position = side;
    // On a wide screen the panel keeps its width and its distance from the edge on the launcher's side.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${PAGE}/test-page?env=stage`);
    await page.locator("[data-assistant-widget] .launcher").click();
    const wide = (await page.getByRole("dialog").boundingBox())!;
    expect(wide.width, side).toBe(380);
    expect(side === "bottom-right" ? 1280 - (wide.x + wide.width) : wide.x, side).toBe(64);

    // On a phone the distance was taken off both sides: 232 px of a 360 px window.
    await page.setViewportSize({ width: 360, height: 640 });
    const narrow = (await page.getByRole("dialog").boundingBox())!;
    expect(narrow.x, side).toBeGreaterThanOrEqual(0);
    expect(narrow.x + narrow.width, side).toBeLessThanOrEqual(360);
    expect(narrow.width, side).toBeGreaterThanOrEqual(360 - 2 * 16);
    const close = (await page.getByRole("button", { name: "Close chat" }).boundingBox())!;
    expect(close.x + close.width, side).toBeLessThanOrEqual(360);
    expect(close.y, side).toBeGreaterThanOrEqual(0);
    await page.getByRole("button", { name: "Close chat" }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
  }
});

test("an answer coming in leaves the log where a visitor scrolled up to, and follows again once they are back at the end", async ({
  signedInPage: page,
  context,
}) => {
  // A short panel and a long greeting: the log scrolls before the first answer.
  const greeting = Array.from({ length: 14 }, (_, line) => `Welcome line ${line + 1}.`).join("\n");
  await withAppearance(context, () => ({ height: 380, greeting_message: greeting }));
  // The real answer, held back while the visitor scrolls.
  let hold = Promise.resolve();
  let release = () => {};
  const holdNextAnswer = () => (hold = new Promise<void>((resolve) => (release = resolve)));
  await context.route(/\/v1\/chat$/, async (route) => {
    const held = hold;
    const answer = await route.fetch();
    await held;
    await route.fulfill({ response: answer });
  });
  await page.goto(`${PAGE}/test-page?env=stage`);
  await page.locator("[data-assistant-widget] .launcher").click();
  const chat = page.getByRole("dialog");
  const log = chat.getByRole("log");
  const box = chat.getByLabel("Your message");
  const ratings = chat.getByRole("group", { name: "Rate this answer" });
  const belowView = () => log.evaluate((node) => node.scrollHeight - node.scrollTop - node.clientHeight);
  const scrollLogTo = (where: "top" | "end") =>
    log.evaluate((node, to) => (node.scrollTop = to === "top" ? 0 : node.scrollHeight), where);
  const ask = async (question: string) => {
    await box.fill(`${question} ${Date.now().toString(36)}?`);
    await box.press("Enter");
  };

  // Scrolled up to read the greeting while the answer comes in: the log stays there.
  holdNextAnswer();
  await ask("Is there a glimmerfrost lab on campus");
  expect(await belowView()).toBeLessThan(2);
  await scrollLogTo("top");
  release();
  await expect(ratings).toHaveCount(1, { timeout: 15_000 });
  expect(await log.evaluate((node) => node.scrollTop)).toBe(0);

  // A new question takes the log to its end, and it follows that answer.
  await ask("Is there a glimmerfrost pool on campus");
  await expect(ratings).toHaveCount(2, { timeout: 15_000 });
  await expect.poll(belowView).toBeLessThan(2);

  // Scrolled up, then back to the end before the answer comes: it follows again.
  holdNextAnswer();
  await ask("Is there a glimmerfrost garden on campus");
  await scrollLogTo("top");
  await scrollLogTo("end");
  release();
  await expect(ratings).toHaveCount(3, { timeout: 15_000 });
  await expect.poll(belowView).toBeLessThan(2);
});

test("a trigger point named with a space or an accent reaches the API as written, from the embed script through the widget", async ({
  signedInPage: page,
}) => {
  const { user_token: token } = await (
    await page.request.post("/auth/dev", { data: { email: "admin@example.com" } })
  ).json();
  const headers = { authorization: `Bearer ${token}` };
  const urlCode = `points-${Date.now().toString(36)}`;
  const created = await page.request.post("/v1/apps", {
    headers,
    data: {
      client_name: `Trigger points ${urlCode}`,
      url_code: urlCode,
      client_type: "higher_ed",
      country: "US",
      market: `us_${urlCode}`,
      trigger_points: ["Campus Visit", "Admisión"],
    },
  });
  expect(created.status()).toBe(201);
  const appId = (await created.json()).id as number;
  for (const [triggerPoint, botName] of [
    ["Campus Visit", "Campus Guide"],
    ["Admisión", "Guía de Admisión"],
  ]) {
    const where = new URLSearchParams({ appId: String(appId), triggerPoint });
    const saved = await page.request.put(`/v1/appearances?${where}`, {
      headers,
      data: { appearance: { value: { bot_name: botName } } },
    });
    expect(saved.ok()).toBe(true);
    const install = await (
      await page.request.get(
        `/v1/bot_installs?${new URLSearchParams({ app_id: String(appId), env: "stage", app_name: triggerPoint })}`,
        { headers },
      )
    ).json();
    expect(install.trigger_point).toBe(triggerPoint);

    // The script as an operator pastes it into their site: the widget shows this trigger point's
    // name (its settings were asked for by that name) and asks its questions under it.
    const site = createServer((request, response) =>
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Visit</title></head><body>${install.content}</body></html>`,
        ),
    );
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    try {
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      await page.locator("[data-assistant-widget] .launcher").click();
      const chat = page.getByRole("dialog", { name: botName });
      await expect(chat).toBeVisible();
      const sent = page.waitForRequest((request) => request.url().endsWith("/v1/chat"));
      await chat.getByLabel("Your message").fill("When can I visit?");
      await chat.getByLabel("Your message").press("Enter");
      expect((await sent).postDataJSON().trigger_point).toBe(triggerPoint);
      await expect(chat.getByRole("log").locator(".row.bot .bubble").last()).not.toBeEmpty({ timeout: 15_000 });
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  }
  // Each conversation is kept under its trigger point.
  const stored = await (await page.request.get(`/v1/apps/${appId}/conversations`, { headers })).json();
  expect(stored.data.map((row: { trigger_point: string }) => row.trigger_point).sort()).toEqual(
    ["Admisión", "Campus Visit"].sort(),
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the environment selector and the script guide work by links and forms", async ({ signedInPage: page }) => {
    await page.goto(PAGE);
    await page.getByLabel("Environment", { exact: true }).selectOption("prod");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/env=prod/);
    await expect(page.getByTestId("bot-script")).toContainText('data-environment="prod"');
    await expect(page.getByRole("button", { name: "Copy Script" })).toHaveCount(0);
    await expect(page.getByText("Select the script and copy it (Copy Script needs JavaScript).")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Script guide" })).toBeVisible();
  });

  test("the Test Chatbot page says the chat needs JavaScript", async ({ signedInPage: page }) => {
    await page.goto(`${PAGE}/test-page?env=stage`);
    await expect(page.getByText(/JavaScript is off in this browser, so the chat cannot open here/)).toBeVisible();
    // Its icon is the console's: a page without one makes the browser ask for /favicon.ico, a 404.
    const icon = await page.locator('link[rel="icon"]').getAttribute("href");
    expect((await page.request.get(icon!)).status()).toBe(200);
  });
});
