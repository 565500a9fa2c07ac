import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, test } from "./fixtures";
import { apiAdmin } from "./api-admin";
import { BASE_URL } from "./ports";

/** The embed script an operator copies for Northfield's admissions agent (Sandbox). */
async function embedScript(request: APIRequestContext) {
  const { headers, appId } = await apiAdmin(request);
  return (
    await (await request.get(`/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { headers })).json()
  ).content as string;
}

/**
 * A client's own site: another origin than the console's, whose strict Content-Security-Policy
 * lets in the widget's script and calls and nothing inline, styles included.
 */
async function startClientSite(embed: string) {
  const server = createServer((req, res) => {
    if (req.url !== "/") return void res.writeHead(404).end();
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `default-src 'none'; script-src ${BASE_URL}; connect-src ${BASE_URL}; img-src ${BASE_URL}; style-src 'self'`,
    });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Northfield University</title></head>
      <body><main><h1>Northfield University</h1><p>Welcome to campus.</p></main>${embed}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

test("a visitor on a client's site rates an answer down with the keyboard, comments, and the operator finds it in Business Insights", async ({
  signedInPage: page,
}) => {
  const site = await startClientSite(await embedScript(page.request));
  try {
    expect(new URL(site.url).origin).not.toBe(new URL(BASE_URL).origin);
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(site.url);
    // Other journeys change the launcher's text and the bot's name: the widget is found by its parts.
    const launcher = page.locator("[data-assistant-widget] .launcher");
    await launcher.click();
    const chat = page.getByRole("dialog");
    const question = `Is there a zorbwheel track ${Date.now().toString(36)} on campus?`;
    await chat.getByLabel("Your message").fill(question);
    await chat.getByLabel("Your message").press("Enter");
    const rating = chat.getByRole("group", { name: "Rate this answer" });
    await expect(rating).toHaveCount(1, { timeout: 15_000 });
    await expect(rating.getByRole("button", { name: "This answer helped" })).toHaveAttribute("aria-pressed", "false");

    // From the message box, one step back reaches the thumbs down under the answer.
    await chat.getByLabel("Your message").press("Shift+Tab");
    const down = rating.getByRole("button", { name: "This answer did not help" });
    await expect(down).toBeFocused();
    const sent = page.waitForRequest((request) => request.url() === `${BASE_URL}/v1/chat/feedback`);
    await page.keyboard.press("Enter");
    const rated = (await sent).postDataJSON() as { conversation_id: string; message_id: number; rating: string };
    expect(rated.rating).toBe("down");
    await expect(down).toHaveAttribute("aria-pressed", "true");
    await expect(rating.getByRole("status")).toHaveText("Thanks. Tell us what was wrong if you like.");
    const comment = rating.getByLabel("What was wrong? (optional)");
    await expect(comment).toBeFocused();
    await expect(comment).toHaveAttribute("maxlength", "500");

    // The server refuses a control character: the reason is said, and the comment stays to be corrected.
    await comment.fill("It does not say\u0007");
    await page.keyboard.press("Tab");
    await expect(rating.getByRole("button", { name: "Send comment" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(rating.getByRole("status")).toHaveText("Invalid comment: Contains a control character");
    await expect(comment).toHaveValue("It does not say\u0007");

    await comment.focus();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("It does not say where the track is.");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(rating.getByRole("status")).toHaveText("Thank you for your feedback.");
    await expect(comment).toBeHidden();
    await expect(down).toBeFocused();
    await expect(down).toHaveAttribute("aria-pressed", "true");
    await expect(rating.getByRole("button", { name: "This answer helped" })).toHaveAttribute("aria-pressed", "false");

    // Styled under the page's policy: its stylesheet applied, nothing refused.
    expect(await launcher.evaluate((button) => getComputedStyle(button).borderRadius)).toBe("999px");
    expect(refused).toEqual([]);
    // Sent from its button with the keyboard: the message box has the focus, to go on typing. A greeting
    // is small talk: its reply has nothing to rate.
    await chat.getByLabel("Your message").fill("Thanks, bye!");
    await chat.getByRole("button", { name: "Send", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(chat.getByLabel("Your message")).toBeFocused();
    await expect(chat.getByText("Goodbye, and thank you for your visit!")).toBeVisible();
    await expect(rating).toHaveCount(1);
    const results = await new AxeBuilder({ page }).include("[data-assistant-widget]").analyze();
    expect(
      results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
    ).toEqual([]);

    await page.goto("/backoffice/northfield/dashboard?environment=stage");
    const unhelpful = page.getByRole("region", { name: "Answers rated unhelpful" });
    const answer = unhelpful.getByRole("listitem").filter({ hasText: question });
    await expect(answer).toContainText("It does not say where the track is.");
    await expect(answer.getByRole("link", { name: question })).toHaveAttribute(
      "href",
      `/northfield/conversations/${rated.conversation_id}#message-${rated.message_id}`,
    );
    await expect(unhelpful).toContainText(/\d+ answers? rated unhelpful/);
    await expectNoSeriousAxeViolations(page);
  } finally {
    await site.close();
  }
});

test("on a site that embeds the script in a sandboxed frame, the widget shows and answers", async ({
  signedInPage: page,
}) => {
  // Site builders put custom code in a frame sandboxed without allow-same-origin: there the mere
  // reading of sessionStorage throws.
  const inner = `<!doctype html><html lang="en"><head><title>Chat</title></head><body>${await embedScript(page.request)}</body></html>`;
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Northfield University</title></head>
      <body><h1>Northfield University</h1><iframe title="Chat" sandbox="allow-scripts allow-popups" style="width:440px;height:600px;border:0"
      srcdoc="${inner.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"></iframe></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const frame = page.frameLocator('iframe[title="Chat"]');
    await frame.locator("[data-assistant-widget] .launcher").click();
    const chat = frame.getByRole("dialog");
    await chat.getByLabel("Your message").fill(`Is there a quillmoss garden ${Date.now().toString(36)} on campus?`);
    await chat.getByLabel("Your message").press("Enter");
    await expect(chat.getByRole("group", { name: "Rate this answer" })).toHaveCount(1, { timeout: 15_000 });
    // The second question goes on in the same conversation, kept by the widget itself.
    const sent = page.waitForRequest((request) => request.url() === `${BASE_URL}/v1/chat`);
    await chat.getByLabel("Your message").fill("And where is it?");
    await chat.getByLabel("Your message").press("Enter");
    expect(((await sent).postDataJSON() as { conversation_id?: string }).conversation_id).toMatch(/^[0-9a-f-]{36}$/);
    await expect(chat.getByRole("group", { name: "Rate this answer" })).toHaveCount(2, { timeout: 15_000 });
    expect(errors).toEqual([]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
