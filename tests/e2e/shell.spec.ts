import { expect, expectNoSeriousAxeViolations, openWithScriptsHeld, signIn, test } from "./fixtures";
import { BASE_URL, E2E } from "./ports";
import { GET_ONLY_MESSAGE } from "../../app/server/http/get-only-routes.server";

const navItems = (page: import("@playwright/test").Page, name: string) =>
  page.getByRole("navigation", { name }).getByRole("link");

test("global navigation with no client selected; clicking a client's agent switches variants", async ({
  signedInPage: page,
}) => {
  await page.goto("/clients");
  await expect(navItems(page, "Global navigation")).toHaveText(["Clients", "Users"]);
  await expect(page.getByTestId("selected-client")).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);

  await page.goto("/northfield");
  // Other journeys add agents to Northfield while this one runs: the seeded ones lead the list.
  const clientNav = await navItems(page, "Client navigation").allTextContents();
  expect(clientNav.slice(0, 3)).toEqual(["Agents", "Admissions Assistant", "Student Success"]);
  expect(clientNav.slice(-4)).toEqual(["Profile", "Access Control", "Conversations", "History"]);
  await expect(page.getByTestId("selected-client")).toHaveText("Northfield University");
  await expect.poll(() => page.evaluate(() => localStorage.getItem("selectedApp"))).toBe("northfield");

  await page
    .getByRole("navigation", { name: "Client navigation" })
    .getByRole("link", { name: "Admissions Assistant" })
    .click();
  await expect(page).toHaveURL(/\/northfield\/agent\/admissions$/);
  await expect(navItems(page, "Agent navigation")).toHaveText([
    "Home",
    "AI Knowledge Store",
    "Websites",
    "Files",
    "Smart Probing",
    "Program Data Model",
    "User Profiling",
    "Manage User Profile",
    "User Profile Store ↗",
    "Controls",
    "AI Personality",
    "Sensitive Topics",
    "No-GO Topics",
    "Integrations",
    "Appearance",
    "AI Testing",
    "Conversations",
    "Business Insights ↗",
    "Personalization",
    "Manage User Profile",
    "Manage Program Profile",
    "Admin Downloads",
  ]);
  const insights = page.getByRole("link", { name: "Business Insights" });
  await expect(insights).toHaveAttribute("target", "_blank");
  await expect(insights).toHaveAttribute(
    "href",
    `${BASE_URL}/backoffice/northfield/dashboard?country=us&market=us_northfield&triggerPoint=admissions`,
  );
  await expectNoSeriousAxeViolations(page);

  await page.getByRole("link", { name: "Websites" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Websites");
  await expect(page.getByRole("link", { name: "Websites" })).toHaveAttribute("aria-current", "page");

  // The logo clears the selection and goes to /.
  await page.getByRole("link", { name: "Home: all clients" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(navItems(page, "Global navigation")).toHaveText(["Clients", "Users"]);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("selectedApp"))).toBeNull();
});

test("breadcrumbs: client name or Home first, title-cased segments, last not a link, hidden when alone", async ({
  signedInPage: page,
}) => {
  await page.goto("/clients/new-client");
  const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
  await expect(crumbs.getByRole("listitem")).toHaveText(["Home", "Clients", "New Client"]);
  await expect(crumbs.getByRole("link")).toHaveText(["Home", "Clients"]);

  await page.goto("/northfield/build-agent?type=engagement");
  await expect(crumbs.getByRole("listitem")).toHaveText(["Northfield University", "Build Agent"]);

  await page.goto("/northfield/agent/admissions/controls/no-go-topics");
  await expect(crumbs.getByRole("listitem")).toHaveText([
    "Northfield University",
    "Agent",
    "Admissions",
    "Controls",
    "No Go Topics",
  ]);
  await crumbs.getByRole("link", { name: "Controls" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Controls");

  // A step with no page of its own is plain text, not the current page: only the last crumb is.
  await page.goto("/northfield/ai-training/websites");
  await expect(crumbs.getByRole("listitem")).toHaveText(["Northfield University", "AI Training", "Websites"]);
  await expect(crumbs.locator("[aria-current]")).toHaveText(["Websites"]);
  await expect(crumbs.locator("[aria-current]")).toHaveAttribute("aria-current", "page");

  await page.goto("/northfield");
  await expect(crumbs).toHaveCount(0);
});

test("every kind of route the spec lists answers, aliases included", async ({ signedInPage: page }) => {
  const pages: [string, string][] = [
    ["/", "Clients"],
    ["/clients/import", "Import Clients"],
    ["/users", "Users"],
    ["/agent/admissions", "admissions architecture"],
    ["/northfield/access-control", "Access Control"],
    ["/northfield/agent/admissions/knowledge store", "AI Knowledge Store"],
    ["/northfield/ai-training/websites", "Websites"],
    ["/northfield/ai-finetuning/input-prompts", "Input Prompts"],
    ["/northfield/ai-finetuning/smart-probe", "User Probing Guidelines"],
    ["/northfield/personalization", "Personalization"],
    ["/northfield/student-profiling", "Student Profiling"],
    ["/northfield/agent/admissions/student-profiling/student-profile-data-model", "Manage Student Profile Data Model"],
    ["/northfield/student-profiling/user-profile-data-model", "Manage User Profile Data Model"],
    ["/northfield/personalization/program-profile-data-model", "Manage Program Profile Data Model"],
  ];
  for (const [path, heading] of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText(heading);
  }
  await page.goto("/northfield/agent/admissions/controls");
  await page.getByRole("link", { name: /Hallucination Accuracy & Quality Check/ }).click();
  await expect(page).toHaveURL(/\/northfield\/agent\/admissions\/controls\/quality-check$/);
});

test("404 rules: unknown client, unknown page in a client, unknown agent; /fonts/ is not the 404 page", async ({
  signedInPage: page,
}) => {
  for (const path of ["/no-such-client", "/northfield/no-such-page", "/northfield/agent/ghost", "/clients/nothing"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "404 Page Not Found" }), path).toBeVisible();
  }
  const font = await page.request.get("/fonts/missing.woff2");
  expect(font.status()).toBe(404);
  expect(await font.text()).toBe("Not found");
});

test("a data request the router refuses says why, under its own 4xx", async ({ signedInPage: page }) => {
  const origin = { Origin: BASE_URL };
  const refusals = [
    { answer: await page.request.post("/northfield?_data=root", { headers: origin }), status: 405 },
    { answer: await page.request.get("/northfield?_data=routes%2Fno-such-route"), status: 403 },
    { answer: await page.request.get("/no-such-client/x/y?_data=routes%2F%24appName"), status: 403 },
  ];
  for (const { answer, status } of refusals) {
    expect(answer.status()).toBe(status);
    const { message } = (await answer.json()) as { message: string };
    expect(message).not.toMatch(/Unexpected Server Error|route|\.tsx?\b/i);
    expect(message.length).toBeGreaterThan(10);
  }
  expect(((await refusals[0].answer.json()) as { message: string }).message).toMatch(/does not take forms/);
  // A loader's own refusal keeps its own words.
  const missing = await page.request.get("/northfield/agent/ghost?_data=routes%2F%24appName.agent.%24agentName");
  expect(missing.status()).toBe(404);
});

test("a download or the test page refuses a form with a 405 that says what it answers", async ({
  signedInPage: page,
}) => {
  for (const path of [
    "/northfield/conversations/export",
    "/northfield/agent/admissions/bot-testing/test-page",
    "/backoffice/northfield/user_profiles/export",
  ]) {
    const answer = await page.request.post(path, { headers: { Origin: BASE_URL }, form: { a: "1" } });
    expect(answer.status(), path).toBe(405);
    expect(answer.headers()["allow"], path).toBe("GET, HEAD");
    expect(await answer.json(), path).toEqual({ message: GET_ONLY_MESSAGE });
  }
});

test("a back-office page asked for with a bad bearer answers 401 saying how to authenticate", async ({ request }) => {
  const answer = await request.get("/backoffice/northfield/dashboard", {
    headers: { authorization: "Bearer not.a.token" },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(401);
  expect(answer.headers()["www-authenticate"]).toBe("Bearer");
  expect(answer.headers()["content-type"]).toMatch(/^text\/html/);
  expect(await answer.text()).toContain("ask /generate_jwt_token for a new one");
});

test("a client user sees only their client and no jobs links; foreign clients are 404", async ({ page }) => {
  await signIn(page, "client.user@example.com");
  await page.goto("/");
  // The Users screen is staff-only (DESIGN.md's role table), so the global navigation leaves it out.
  await expect(navItems(page, "Global navigation")).toHaveText(["Clients"]);
  await page.goto("/northfield");
  await page.getByLabel("Profile menu").click();
  await expect(page.getByRole("link", { name: "Background jobs" })).toHaveCount(0);
  expect((await page.goto("/shopharbor-outfitters"))?.status()).toBe(404);
  expect((await page.goto("/jobs"))?.status()).toBe(403);
  // The queue console's entry refuses in the console's own page too, not with a bare answer.
  expect((await page.goto("/jobs/queues"))?.status()).toBe(403);
  await expect(page.getByRole("navigation", { name: "Global navigation" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("You do not have permission");
});

test("the profile menu opened before the page's scripts run stays open once they have", async ({
  signedInPage: page,
}) => {
  const hydrate = await openWithScriptsHeld(page, "/northfield");
  await page.getByLabel("Profile menu").click();
  await expect(page.getByRole("link", { name: "Background jobs" })).toBeVisible();
  await hydrate();
  await expect(page.getByRole("link", { name: "Background jobs" })).toBeVisible();
  // A navigation still closes it.
  await page.getByRole("link", { name: "Background jobs" }).click();
  await expect(page.getByRole("heading", { name: "Background jobs" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Queue console" })).toBeHidden();
});

test("background jobs: run a queue from the dashboard, watch it complete, open its queue console", async ({
  signedInPage: page,
}) => {
  await page.goto("/northfield");
  await page.getByLabel("Profile menu").click();
  await page.getByRole("link", { name: "Background jobs" }).click();
  await expect(page.getByRole("heading", { name: "Background jobs" })).toBeVisible();
  const row = page.locator("tr[data-queue='purge-refresh-tokens']");
  await expect(row).toContainText("17 3 * * *");
  // A queue whose jobs need their work named (a website's indexing) is not offered a Run now it would refuse.
  const indexing = page.locator("tr[data-queue='website-process']");
  await expect(indexing.getByRole("button", { name: "Run now" })).toHaveCount(0);
  await expect(indexing).toContainText("Runs when its work is asked for");
  await row.getByRole("button", { name: "Run now" }).click();

  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Job queued (purge-refresh-tokens)");
  // Toasts close themselves after 5000 ms.
  await expect(toast).toBeHidden({ timeout: 7000 });

  await expect(async () => {
    await page.goto("/jobs/queues/purge-refresh-tokens?state=completed");
    await expect(page.locator("tbody tr").first()).toContainText("completed");
  }).toPass({ timeout: 10_000 });
  await page.locator("tbody tr").first().getByText(/^Job /).click();
  await expect(page.locator("tbody tr").first()).toContainText('"deleted"');

  await page.getByLabel("Profile menu").click();
  await page.getByRole("link", { name: "Queue console" }).click();
  await expect(page).toHaveURL(/\/jobs\/queues\/purge-refresh-tokens$/);
  await expect(page.getByRole("heading", { name: "Queue console: purge-refresh-tokens" })).toBeVisible();
});

test("a console started with API_URL works as a pure client of a remote API host", async ({ page }) => {
  const remote = `http://127.0.0.1:${E2E.remoteConsolePort}`;
  await page.goto(`${remote}/login`);
  await page.getByLabel("Email").fill("client.admin@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByRole("navigation", { name: "Global navigation" })).toBeVisible();
  await page.goto(`${remote}/northfield/agent/studentsuccess`);
  await expect(page.getByTestId("selected-client")).toHaveText("Northfield University");
  await expect(page.getByRole("navigation", { name: "Agent navigation" })).toBeVisible();
  // It hosts no API of its own.
  expect((await page.request.get(`${remote}/v1/openapi.json`)).status()).toBe(404);
});

test("the first Tab reaches a skip link, shown when focused, that takes the keyboard into the page's content", async ({
  signedInPage: page,
}) => {
  await page.goto("/northfield/agent/admissions/controls/sensitive-topics");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport({ ratio: 1 });
  expect((await skip.boundingBox())!.width).toBeGreaterThan(100);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  // The next Tab goes on from there: the breadcrumb's first link, not the top bar or the navigation.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("main").getByRole("link", { name: "Northfield University" })).toBeFocused();
});

test("a page opened in the browser is announced by its title, as a page loaded whole is", async ({
  signedInPage: page,
}) => {
  await page.goto("/northfield/agent/admissions/controls");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const announcer = page.getByTestId("route-announcer");
  await expect(announcer).toHaveAttribute("aria-live", "assertive");
  // A page loaded whole is announced by the browser itself.
  await expect(announcer).toHaveText("");
  await page
    .getByRole("main")
    .getByRole("link", { name: /^AI Personality/ })
    .click();
  await expect(page).toHaveURL(/\/controls\/ai-personality$/);
  await expect(announcer).toHaveText(
    "AI Personality · Admissions Assistant · Northfield University · Assistant Console",
  );
  await page.getByRole("navigation", { name: "Agent navigation" }).getByRole("link", { name: "Appearance" }).click();
  await expect(page).toHaveURL(/\/appearance$/);
  await expect(announcer).toHaveText("Appearance · Admissions Assistant · Northfield University · Assistant Console");
});

test("a toast stays while the pointer or the focus is on it, and closes on its timer once they leave", async ({
  signedInPage: page,
}) => {
  await page.clock.install();
  await page.goto("/northfield/agent/admissions/knowledge-store/websites/urls");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const toast = page.getByTestId("toast");
  const exportLink = page.getByRole("link", { name: "Export CSV" }).first();

  await exportLink.click();
  await expect(toast).toBeVisible();
  const close = toast.getByRole("button", { name: "Close notification" });
  await close.focus();
  await page.clock.runFor(12_000);
  await expect(toast).toBeVisible();
  await close.blur();
  // Its whole time again once the focus has left.
  await page.clock.runFor(4_000);
  await expect(toast).toBeVisible();
  await page.clock.runFor(1_500);
  await expect(toast).toHaveCount(0);

  await exportLink.click();
  await expect(toast).toBeVisible();
  await toast.hover();
  await page.clock.runFor(12_000);
  await expect(toast).toBeVisible();
  await page.mouse.move(1, 1);
  await page.clock.runFor(5_500);
  await expect(toast).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the skip link still takes the keyboard into the page's content", async ({ signedInPage: page }) => {
    await page.goto("/northfield");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main")).toBeFocused();
  });
});

test("in a 375 or 320 px window no screen scrolls sideways: the navigation sits above the page, cards and panels narrow", async ({
  signedInPage: page,
}) => {
  for (const width of [375, 320]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of [
      "/clients",
      "/northfield",
      "/northfield/manage",
      "/northfield/agent/admissions/knowledge-store/websites",
      "/northfield/agent/admissions/controls/test-questions",
      "/northfield/agent/admissions/appearance",
      "/backoffice/northfield/dashboard",
      "/northfield/conversations",
      "/users",
    ]) {
      await page.goto(path);
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(sideways, `${path} at ${width} px`).toBe(0);
    }
  }
  // Above the page, where it is seen first.
  await page.goto("/northfield");
  await expect(page.getByRole("navigation", { name: "Client navigation" })).toBeInViewport();

  // Appearance puts its form first, the full width of the page, and its live preview under it.
  await page.goto("/northfield/agent/admissions/appearance");
  const form = (await page.getByRole("form", { name: "Appearance settings" }).boundingBox())!;
  const preview = (await page.getByTitle("Chat preview").boundingBox())!;
  expect(form.width).toBeGreaterThan(280);
  expect(preview.y).toBeGreaterThanOrEqual(form.y + form.height);
  // Its title keeps its word whole: one line, the height of one.
  const title = (await page.getByRole("heading", { level: 1, name: "Appearance" }).boundingBox())!;
  expect(title.height).toBeLessThan(40);

  // Between the narrow window and a wide one the navigation sits beside the page: the preview goes
  // under the form there too, rather than squeezing it.
  await page.setViewportSize({ width: 900, height: 800 });
  const besideNavigation = (await page.getByRole("form", { name: "Appearance settings" }).boundingBox())!;
  expect(besideNavigation.width).toBeGreaterThan(400);
  expect((await page.getByTitle("Chat preview").boundingBox())!.y).toBeGreaterThanOrEqual(
    besideNavigation.y + besideNavigation.height,
  );
  await page.setViewportSize({ width: 320, height: 800 });

  // The profile menu's button and its panel stay in the window.
  const profile = page.getByRole("banner").locator("summary");
  await expect(profile).toBeInViewport({ ratio: 1 });
  await profile.click();
  for (const item of ["admin@example.com", "Background jobs", "Logout"])
    await expect(page.getByRole("banner").getByText(item, { exact: true })).toBeInViewport({ ratio: 1 });
});
