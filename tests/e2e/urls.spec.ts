import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { parseCsv } from "../../app/lib/csv";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";
import { BASE_URL } from "./ports";

const WEBSITES = "/northfield/agent/admissions/knowledge-store/websites";
const drawerOf = (id: number) => `${WEBSITES}/${id}`;
const DEMO_PAGES = ["tuition.html", "admissions.html", "contact.html"];

/** The API host answers on the same origin; its own token lets a test set up data directly. */
async function apiToken(request: APIRequestContext) {
  const response = await request.post("/auth/dev", { data: { email: "client.admin@example.com" } });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { user_token: string }).user_token;
}

async function northfieldId(request: APIRequestContext, token: string) {
  const response = await request.get("/v1/apps?status=active", { headers: { authorization: `Bearer ${token}` } });
  const { apps } = (await response.json()) as { apps: { id: number; url_code: string }[] };
  return apps.find((app) => app.url_code === "northfield")!.id;
}

/**
 * Tests share one server and run in parallel: each gets its own few_urls website. Its addresses
 * are public names nobody crawls here, so its rows stay as the test leaves them unless it asks
 * for work; indexing is shown on the seeded demo website instead.
 */
async function createWebsite(request: APIRequestContext, label: string, pages = DEMO_PAGES) {
  const token = await apiToken(request);
  const appId = await northfieldId(request, token);
  const tag = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const origin = `https://${tag}.northfield-e2e.example`;
  const urls = pages.map((page) => `${origin}/${page}`);
  const created = await request.post(`/v1/apps/${appId}/websites/create_and_update`, {
    headers: { authorization: `Bearer ${token}` },
    data: { websites: [{ app_id: appId, url: `${origin}/`, site_map: "few_urls", urls }] },
  });
  expect(created.status(), await created.text()).toBe(200);
  const id = ((await created.json()) as { websites: { id: number }[] }).websites[0].id;
  await expect
    .poll(
      async () => {
        const list = await request.get(`/v1/apps/${appId}/websites/${id}/urls`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await list.json()) as { data: unknown[] }).data.length;
      },
      { timeout: 15_000 },
    )
    .toBe(urls.length);
  return { id, tag, origin, urls, appId };
}

/** The seeded website on the bundled demo site, once its sitemap has been read. */
async function demoWebsite(request: APIRequestContext) {
  const token = await apiToken(request);
  const appId = await northfieldId(request, token);
  const headers = { authorization: `Bearer ${token}` };
  const list = await request.get(`/v1/apps/${appId}/websites?page_size=100&query=demo-site`, { headers });
  const website = ((await list.json()) as { websites: { id: number; url: string }[] }).websites.find(
    (w) => w.url === `${BASE_URL}/demo-site/`,
  )!;
  expect(website).toBeTruthy();
  await expect
    .poll(
      async () => {
        const urls = await request.get(`/v1/apps/${appId}/websites/${website.id}/urls`, { headers });
        return ((await urls.json()) as { data: unknown[] }).data.length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(6);
  return website;
}

/** The drawer over the Websites page (whose own table stays behind it). */
const drawer = (page: Page) => page.getByRole("dialog").first();
const rowOf = (page: Page, url: string) =>
  drawer(page)
    .locator("tbody tr")
    .filter({ has: page.getByRole("link", { name: url, exact: true }) });
/** JavaScript has taken over the drawer: the export link then carries the browser's time zone. */
const hydrated = (page: Page) =>
  expect(drawer(page).getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", /tz=/);
/**
 * Stops the page's clock a second ahead of where it stands (a beat due in that second fires once,
 * as the jump passes it), then waits until the router has nothing loading: a load a navigation
 * interrupts makes Remix load every route again at the next one, which would add to the count.
 */
async function holdClockStill(page: Page) {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.waitForFunction(() => {
    const { state } = (
      window as unknown as { __remixRouter: { state: { navigation: { state: string }; revalidation: string } } }
    ).__remixRouter;
    return state.navigation.state === "idle" && state.revalidation === "idle";
  });
  await page.waitForTimeout(300);
}
const daysOf = (page: Page, url: string) => page.getByLabel(`Refresh days for ${url}`, { exact: true });
const toast = (page: Page) => page.getByTestId("toast").last();

test.describe("with JavaScript", () => {
  test("a pasted link opens the view-links drawer with its search and filters applied", async ({
    signedInPage: page,
  }) => {
    const site = await createWebsite(page.request, "paste");
    await page.goto(`${drawerOf(site.id)}?search=tuition&status=pending_review,indexed&page_size=10`);
    await expect(drawer(page).getByRole("heading", { name: `${site.origin}/` })).toBeVisible();
    await expect(drawer(page).getByText("Total URLs")).toBeVisible();
    await expect(drawer(page).getByText("Last updated")).toBeVisible();
    await expect(page.getByRole("searchbox", { name: "Search URLs" })).toHaveValue("tuition");
    await expect(page.getByLabel("2 active filters")).toHaveText("2");
    await expect(page.getByText("Filtered URLs: 1")).toBeVisible();
    await expect(drawer(page).locator("tbody tr")).toHaveCount(1);
    await expect(rowOf(page, site.urls[0]).locator("[data-status]")).toHaveText("pending_review");
    await expect(drawer(page).getByLabel("Rows per page", { exact: true })).toHaveValue("10");
    await expect(page.getByRole("button", { name: "Index", exact: true })).toBeDisabled();
    await expectNoSeriousAxeViolations(page);

    // The filter menu: uncheck indexed, the address follows.
    await drawer(page).locator("summary", { hasText: "Filters" }).click();
    await page.getByRole("checkbox", { name: "indexed", exact: true }).uncheck();
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/status=pending_review(&|$)/);
    await expect(page.getByLabel("1 active filters")).toBeVisible();

    // Sorting by status starts ascending on page 0.
    await page.getByRole("link", { name: /^Status/ }).click();
    await expect(page).toHaveURL(/order_by=status&order=asc/);
    await expect(drawer(page).getByRole("columnheader", { name: /Status/ })).toHaveAttribute("aria-sort", "ascending");
  });

  test("add links, then select rows and Skip them: the selection clears and the statuses move on", async ({
    signedInPage: page,
  }) => {
    const site = await createWebsite(page.request, "links", ["tuition.html"]);
    await page.goto(drawerOf(site.id));
    await hydrated(page);
    await page.getByText("+ Links").click();
    const box = page.getByLabel("Links (one per line)");
    await expect(box).toHaveAttribute("rows", "4");
    await expect(page.getByRole("button", { name: "Add", exact: true })).toBeDisabled();
    await box.fill("   \n");
    await expect(page.getByRole("button", { name: "Add", exact: true })).toBeDisabled();
    // A refused add says why beside the box and gives the keyboard back to it.
    await box.fill("not a url");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(box).toHaveAttribute("aria-invalid", "true");
    await expect(box).toBeFocused();
    const added = [`${site.origin}/added-one`, `${site.origin}/added-two`];
    await box.fill(`  ${added[0]}  \n\n${added[1]}\n`);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(toast(page)).toContainText("2 links added");
    await expect(rowOf(page, added[0])).toBeVisible();
    await expect(box).toBeHidden();

    await expect(page.getByRole("button", { name: "Skip", exact: true })).toBeDisabled();
    await page.getByLabel(`Select ${added[0]}`).check();
    await page.getByLabel(`Select ${site.urls[0]}`).check();
    await expect(page.getByText("2 selected")).toBeVisible();
    await page.getByRole("button", { name: "Skip", exact: true }).click();
    await expect(toast(page)).toContainText("2 of 2 URLs set to to_be_skipped");
    await expect(page.getByLabel(`Select ${added[0]}`)).not.toBeChecked();
    await expect(rowOf(page, added[0]).locator("[data-status]")).toHaveText("skipped", { timeout: 20_000 });
    await expect(rowOf(page, site.urls[0]).locator("[data-status]")).toHaveText("skipped", { timeout: 20_000 });
    await expect(rowOf(page, added[1]).locator("[data-status]")).toHaveText("pending_review");
    // History says who asked for the pages added and skipped, and which pages.
    await page.goto("/northfield/history?kind=urls");
    for (const [summary, named] of [
      ["2 URLs added", added[1]],
      ["2 URLs to be skipped", added[0]],
    ]) {
      const row = page
        .locator("tbody tr", { has: page.locator("li", { hasText: named }) })
        .filter({ has: page.locator("summary", { hasText: summary }) });
      await expect(row).toHaveCount(1);
      await expect(row.getByRole("cell").nth(1)).toHaveText("admin@example.com");
      await expect(row.getByRole("cell").nth(2)).toHaveText("URLs");
    }
    await page.goto(drawerOf(site.id));
    await hydrated(page);

    // Select all, then clear.
    await page.getByLabel("Select all URLs on this page").check();
    await expect(page.getByText("3 selected")).toBeVisible();
    await page.getByLabel("Select all URLs on this page").uncheck();
    await expect(page.getByRole("button", { name: "Index", exact: true })).toBeDisabled();

    // Delete asks first; Cancel leaves the URL as it was.
    await page.getByLabel(`Select ${added[1]}`).check();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const question = page.getByRole("form", { name: "Delete selected URLs" });
    await expect(question).toContainText("Delete the selected URL? Their chunks are removed from the knowledge store.");
    await expect(question).toBeFocused();
    await question.getByRole("link", { name: "Cancel" }).click();
    await expect(question).toBeHidden();
    await expect(rowOf(page, added[1]).locator("[data-status]")).toHaveText("pending_review");
  });

  test("Index a demo-site page, watch it become indexed, then read its chunks", async ({
    signedInPage: page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
    const website = await demoWebsite(page.request);
    const tuition = `${BASE_URL}/demo-site/tuition.html`;
    await page.goto(`${drawerOf(website.id)}?search=tuition`);
    await hydrated(page);
    await page.getByLabel(`Select ${tuition}`).check();
    await page.getByRole("button", { name: "Force Index" }).click();
    await expect(toast(page)).toContainText("URLs set to to_be_indexed");
    await expect(rowOf(page, tuition).locator("[data-status]")).toHaveText("indexed", { timeout: 20_000 });
    // When the page's text last changed (and was last checked) shows under its address.
    await expect(rowOf(page, tuition)).toContainText(/Last changed \d{2}\/\d{2}\/\d{4}/);

    await rowOf(page, tuition)
      .getByRole("link", { name: `View chunks of ${tuition}` })
      .click();
    // The first visit fetches the drawer's code, then its data. On a busy two-core machine the
    // browser's page itself was measured standing still for up to 7 s (no task run, none long),
    // so these two steps get 15 s; the rest keep 5 s.
    await expect(page.getByRole("heading", { name: `Chunks for URL ${tuition}` })).toBeVisible({ timeout: 15_000 });
    const json = page.getByTestId("chunks-json");
    await expect(json).toContainText('"text"', { timeout: 15_000 });
    await expect(json).toHaveCSS("font-size", "14px");
    await page.getByRole("link", { name: "Larger font (A+)" }).click();
    await expect(json).toHaveCSS("font-size", "16px");
    await page.getByRole("link", { name: "Smaller font (A-)" }).click();
    await expect(json).toHaveCSS("font-size", "14px");
    await page.getByRole("link", { name: "Smaller font (A-)" }).click();
    await expect(json).toHaveCSS("font-size", "12px");
    await expect(page).toHaveURL(/font=12/);
    await page.getByRole("link", { name: "Light theme" }).click();
    await expect(page).toHaveURL(/theme=light/);
    await page.getByRole("button", { name: "Copy JSON" }).click();
    await expect(toast(page)).toContainText("JSON copied to clipboard!");
    // Closing the chunks drawer returns to the filtered view.
    await page.getByRole("dialog").last().getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(new RegExp(`${drawerOf(website.id)}\\?search=tuition$`));

    await page.goto(`${drawerOf(website.id)}/chunks?url=${encodeURIComponent("https://nowhere.example/")}`);
    await expect(page.getByRole("alert").filter({ hasText: "URL not found" })).toBeVisible();

    // The Websites screen says what the website's last refresh did (other tests index its pages too).
    await page.goto(WEBSITES);
    await expect(page.getByTestId("refresh-summary").first()).toHaveText(
      /^Last refresh \d{2}\/\d{2}\/\d{4} \| \d{2}:\d{2} UTC: [\d,]+ (checked|new|failed)\b/,
    );
  });

  test("opening a page's chunks asks the server for that drawer's data alone; closing it for nothing; polling for the page's own", async ({
    signedInPage: page,
  }) => {
    const website = await demoWebsite(page.request);
    const contact = `${BASE_URL}/demo-site/contact.html`;
    // The page's clock held still: other journeys index the demo site meanwhile, and a polling
    // beat (every 2 s while work is pending) would add its own requests to the ones counted here.
    await page.clock.install();
    await page.goto(`${drawerOf(website.id)}?search=contact`);
    await hydrated(page);
    await holdClockStill(page);
    // Each loader a navigation runs is one request naming its route in `_data`.
    const loaders: string[] = [];
    page.on("request", (request) => {
      const route = new URL(request.url()).searchParams.get("_data");
      if (route) loaders.push(route);
    });
    await rowOf(page, contact)
      .getByRole("link", { name: `View chunks of ${contact}` })
      .click();
    const heading = page.getByRole("heading", { name: `Chunks for URL ${contact}` });
    await expect(heading).toBeVisible({ timeout: 15_000 });
    // The drawer opens at once with a spinner: closing it before its data arrives interrupts the
    // load, and Remix then loads every route the closing navigation keeps.
    await expect(page).toHaveURL(/\/chunks\?/);
    await expect(page.getByRole("status", { name: "Loading chunks" })).toHaveCount(0);
    // Not the shell's user and clients, the client, the agent, the websites list or the URLs again.
    expect(loaders).toEqual(["routes/$appName.agent.$agentName.knowledge-store.websites.$websiteId.chunks"]);

    loaders.length = 0;
    await page.getByRole("dialog").last().getByRole("link", { name: "Close" }).click();
    await expect(heading).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`${drawerOf(website.id)}\\?search=contact$`));
    expect(loaders).toEqual([]);

    // A beat of polling (what the page does every 2 s while URLs are indexed) asks for the list and
    // the drawer, not the shell's user, client list, client and agent.
    await page.evaluate(() =>
      (window as unknown as { __remixRouter: { revalidate(): Promise<void> } }).__remixRouter.revalidate(),
    );
    expect(loaders.sort()).toEqual([
      "routes/$appName.agent.$agentName.knowledge-store.websites",
      "routes/$appName.agent.$agentName.knowledge-store.websites.$websiteId",
    ]);
  });

  test("a list and its drawer, both waiting for work, ask for the page once a beat, not once each", async ({
    signedInPage: page,
  }) => {
    const website = await demoWebsite(page.request);
    await page.clock.install();
    // The websites list and the drawer are told that work is under way, so both poll.
    const LIST = "routes/$appName.agent.$agentName.knowledge-store.websites";
    const DRAWER = `${LIST}.$websiteId`;
    await page.route(
      (url) => [LIST, DRAWER].includes(url.searchParams.get("_data") ?? ""),
      async (route) => {
        // A load the page gave up on (a newer one took its place) is dropped while it is read here.
        const response = await route.fetch().catch(() => null);
        const data = await response?.json().catch(() => null);
        if (!response || !data) return route.abort().catch(() => undefined);
        if (data.statusCounts) data.statusCounts.to_be_indexed = 1;
        if (data.list) data.list.data = data.list.data.map((row: object) => ({ ...row, status: "to_be_indexed" }));
        await route.fulfill({ response, json: data });
      },
    );
    await page.goto(`${WEBSITES.replace("websites", "files")}`);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.getByRole("navigation").getByRole("link", { name: "Websites", exact: true }).click();
    await page.getByLabel(`Actions for ${website.url}`).click();
    await page.getByRole("link", { name: "View Links" }).click();
    await expect(drawer(page).locator("[data-status]").first()).toContainText("to_be_indexed");

    const loaders: string[] = [];
    page.on("request", (request) => {
      const route = new URL(request.url()).searchParams.get("_data");
      if (route) loaders.push(route);
    });
    // Two seconds of the page's time (held still otherwise), in steps that leave each answer time
    // to arrive, as real time would: two timers set apart fire apart, each after the other's load.
    await holdClockStill(page);
    loaders.length = 0;
    for (let step = 0; step < 20; step++) {
      await page.clock.runFor(100);
      await page.waitForTimeout(150);
    }
    expect(loaders.sort()).toEqual([LIST, DRAWER]);
  });

  test("refresh days save themselves; a value outside 1–365 raises the toast", async ({ signedInPage: page }) => {
    const site = await createWebsite(page.request, "days", ["contact.html"]);
    await page.goto(drawerOf(site.id));
    await hydrated(page);
    const input = daysOf(page, site.urls[0]);
    await expect(input).toHaveValue("30");
    await expect(input).toHaveAttribute("min", "1");
    await input.fill("400");
    await expect(toast(page)).toContainText("Refresh days must be between 1 and 365.");
    await input.fill("60");
    await expect(toast(page)).toContainText("Refresh days saved");
    await page.reload();
    await expect(daysOf(page, site.urls[0])).toHaveValue("60");
  });

  test("Export CSV downloads the filtered URLs", async ({ signedInPage: page }) => {
    const site = await createWebsite(page.request, "csv");
    await page.goto(`${drawerOf(site.id)}?search=admissions`);
    await hydrated(page);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(
      new RegExp(`^urls_export_${new URL(site.origin).host.replace(/\./g, "\\.")}_\\d{8}T\\d{6}Z\\.csv$`),
    );
    await expect(toast(page)).toContainText("Export completed successfully");
    const [header, ...rows] = parseCsv(await readFile((await file.path())!, "utf8"));
    expect(header).toEqual([
      "url",
      "title",
      "status",
      "sitemap_refresh_review_status",
      "metadata",
      "indexed_at",
      "created_at",
      "updated_at",
    ]);
    expect(rows.map((row) => row[0])).toEqual([site.urls[1]]);
  });

  test("the unified drawer lists the URLs of one status, searching as you type", async ({ signedInPage: page }) => {
    const site = await createWebsite(page.request, "unified", ["campus-life.html"]);
    await page.goto(`${WEBSITES}/urls?status=pending_review`);
    await expect(page.getByRole("heading", { name: "pending_review URLs" })).toBeVisible();
    await hydrated(page);
    await page.getByRole("searchbox", { name: "Search URLs" }).pressSequentially(site.tag);
    // 300 ms after the last key, then a navigation: as slow as the chunks drawer's first visit on a busy machine.
    await expect(page).toHaveURL(new RegExp(`search=${site.tag}`), { timeout: 15_000 });
    await expect(drawer(page).locator("tbody tr")).toHaveCount(1);
    await expect(rowOf(page, site.urls[0])).toContainText(`${site.origin}/`);
    await expect(page.getByText("Filtered URLs: 1")).toBeVisible();
    await page.getByRole("searchbox", { name: "Search URLs" }).fill("no-such-url-anywhere");
    await expect(page.getByText("No URLs found")).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    await page.goto(`${WEBSITES}/urls?status=indexed`);
    await expect(page.getByRole("heading", { name: "indexed URLs" })).toBeVisible();
    const statuses = await drawer(page).locator("tbody td [data-status]").allTextContents();
    expect(statuses.every((status) => status === "indexed")).toBe(true);
  });

  test("read-only for a Client: no bulk actions, no Add Links, refresh days disabled; export and chunks stay", async ({
    page,
  }) => {
    const site = await createWebsite(page.request, "viewer", ["contact.html"]);
    await signIn(page, "client.user@example.com");
    await page.goto(drawerOf(site.id));
    await expect(rowOf(page, site.urls[0])).toBeVisible();
    await expect(page.getByRole("button", { name: "Index", exact: true })).toHaveCount(0);
    await expect(page.getByText("+ Links")).toHaveCount(0);
    await expect(page.getByLabel(`Select ${site.urls[0]}`)).toHaveCount(0);
    await expect(daysOf(page, site.urls[0])).toBeDisabled();
    await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
    await expect(page.getByRole("link", { name: `View chunks of ${site.urls[0]}` })).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the chunks drawer shows a page's JSON and says how to copy it without Copy JSON", async ({
    signedInPage: page,
  }) => {
    const website = await demoWebsite(page.request);
    const tuition = `${BASE_URL}/demo-site/tuition.html`;
    await page.goto(`${drawerOf(website.id)}/chunks?url=${encodeURIComponent(tuition)}`);
    await expect(page.getByTestId("chunks-json")).toContainText('"text"');
    await expect(page.getByRole("button", { name: "Copy JSON" })).toHaveCount(0);
    await expect(page.getByText("Select the JSON and copy it (Copy JSON needs JavaScript).")).toBeVisible();
  });

  test("filters, Add Links, a bulk action and refresh days all work through plain forms", async ({
    signedInPage: page,
  }) => {
    const site = await createWebsite(page.request, "nojs");
    await page.goto(drawerOf(site.id));

    await drawer(page).locator("summary", { hasText: "Filters" }).click();
    await page.getByRole("checkbox", { name: "pending_review" }).check();
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/status=pending_review/);
    await expect(page.getByLabel("1 active filters")).toBeVisible();
    await expect(page.getByText("Filtered URLs: 3")).toBeVisible();

    await page.getByText("+ Links").click();
    const added = `${site.origin}/programs/`;
    await page.getByLabel("Links (one per line)").fill(`\n  ${added}  \n`);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByTestId("toast")).toContainText("1 link added");
    await expect(page).toHaveURL(/status=pending_review/);
    await expect(rowOf(page, added)).toBeVisible();

    await page.getByLabel(`Select ${site.urls[2]}`).check();
    await page.getByRole("button", { name: "Skip", exact: true }).click();
    await expect(page.getByTestId("toast")).toContainText("1 of 1 URLs set to to_be_skipped");

    // Delete asks first, then deletes what was chosen.
    await page.getByLabel(`Select ${site.urls[1]}`).check();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const question = page.getByRole("form", { name: "Delete selected URLs" });
    await expect(question).toContainText("Delete the selected URL?");
    await question.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page.getByTestId("toast")).toContainText("1 of 1 URLs set to to_be_deleted");

    const input = daysOf(page, site.urls[0]);
    await input.fill("400");
    await page.getByRole("button", { name: `Save refresh days for ${site.urls[0]}` }).click();
    await expect(page.getByTestId("toast")).toContainText("Refresh days must be between 1 and 365.");
    // The refused value stays in its row, marked, for the user to correct.
    await expect(daysOf(page, site.urls[0])).toHaveValue("400");
    await expect(daysOf(page, site.urls[0])).toHaveAttribute("aria-invalid", "true");
    await daysOf(page, site.urls[0]).fill("20");
    await page.getByRole("button", { name: `Save refresh days for ${site.urls[0]}` }).click();
    await expect(page.getByTestId("toast")).toContainText("Refresh days set to 20");
    await expect(daysOf(page, site.urls[0])).toHaveValue("20");
    await expect(daysOf(page, site.urls[0])).not.toHaveAttribute("aria-invalid");
    expect(page.url()).not.toContain("refused_days");
  });

  test("the unified drawer searches on submit and pages without JavaScript", async ({ signedInPage: page }) => {
    const site = await createWebsite(page.request, "nojs-unified", ["tuition.html"]);
    await page.goto(`${WEBSITES}/urls`);
    await expect(page.getByRole("heading", { name: "All URLs" })).toBeVisible();
    await page.getByRole("searchbox", { name: "Search URLs" }).fill(site.tag);
    await drawer(page).getByRole("button", { name: "Search" }).click();
    await expect(rowOf(page, site.urls[0])).toBeVisible();
    await drawer(page).getByLabel("Rows per page", { exact: true }).selectOption("25");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/page_size=25/);
  });
});
