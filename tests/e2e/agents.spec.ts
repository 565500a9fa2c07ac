import { readFileSync } from "node:fs";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { pngOfAtLeast, pngOnDisk } from "../support/files";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";

/** Tests run in parallel against one server: every agent they make gets its own name and site code. */
const unique = () => Math.random().toString(36).slice(2, 8);

const group = (page: Page, title: string) => page.getByRole("region", { name: title });
const card = (page: Page, name: string) =>
  page.getByTestId("agent-card").filter({ has: page.getByRole("heading", { name, exact: true }) });

/** Types into the site code field once the page is interactive (characters typed before hydration are not filtered). */
async function typeSiteCode(page: Page, typed: string, expected: string) {
  const field = page.getByLabel("Site Code");
  await expect(async () => {
    await field.fill("");
    await field.pressSequentially(typed);
    await expect(field).toHaveValue(expected, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

/** A fresh client made through the API as a staff member (for pages that must start empty). */
async function createClient(request: APIRequestContext, urlCode: string) {
  const signedIn = await request.post("/auth/dev", { data: { email: "admin@example.com" } });
  expect(signedIn.ok()).toBe(true);
  const { user_token } = (await signedIn.json()) as { user_token: string };
  const response = await request.post("/v1/apps", {
    headers: { authorization: `Bearer ${user_token}` },
    data: {
      client_name: `Empty ${urlCode}`,
      url_code: urlCode,
      client_type: "higher_ed",
      country: "US",
      market: `us_${urlCode}`,
    },
  });
  expect(response.status()).toBe(201);
}

async function expectCardSize(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box && [Math.round(box.width), Math.round(box.height)]).toEqual([364, 126]);
}

test.describe("with JavaScript", () => {
  test("agent list home: groups, cards opening the agent, edit buttons and 'Create New Agent' cards", async ({
    signedInPage: page,
  }) => {
    await page.goto("/northfield");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Agents");
    await expect(page.getByTestId("agent-group").getByRole("heading", { level: 2 })).toHaveText([
      "Enrollment Agents",
      "Engagement Agents",
    ]);

    const admissions = card(page, "Admissions Assistant");
    await expect(
      group(page, "Enrollment Agents").getByTestId("agent-card").filter({ hasText: "Admissions Assistant" }),
    ).toHaveCount(1);
    await expect(admissions.getByRole("link", { name: /Admissions Assistant/ }).first()).toHaveAttribute(
      "href",
      "/northfield/agent/admissions",
    );
    await expect(admissions.getByRole("link", { name: "Edit Admissions Assistant" })).toHaveAttribute(
      "href",
      /^\/northfield\/build-agent\?id=\d+$/,
    );
    await expect(admissions.getByTestId("fallback-agent-logo")).toBeVisible();
    await expectCardSize(admissions);
    await expect(group(page, "Engagement Agents").getByRole("link", { name: "Edit Student Success" })).toBeVisible();
    await expect(card(page, "Student Success").getByRole("link").first()).toHaveAttribute(
      "href",
      "/northfield/agent/studentsuccess",
    );

    await expect(group(page, "Enrollment Agents").getByRole("link", { name: "Create New Agent" })).toHaveAttribute(
      "href",
      "/northfield/build-agent?type=enrollment",
    );
    await expect(group(page, "Engagement Agents").getByRole("link", { name: "Create New Agent" })).toHaveAttribute(
      "href",
      "/northfield/build-agent?type=engagement",
    );
    await expectCardSize(group(page, "Engagement Agents").getByRole("link", { name: "Create New Agent" }));

    const preferences = page.getByRole("region", { name: "Manage Client Preference" });
    await expect(preferences.getByRole("link", { name: "Manage Profile" })).toHaveAttribute(
      "href",
      "/northfield/manage",
    );
    await expect(preferences.getByRole("link", { name: "Manage Access Control" })).toHaveAttribute(
      "href",
      "/northfield/access-control",
    );
    await expect(preferences.getByRole("button", { name: "Export App" })).toBeEnabled();
    await expectNoSeriousAxeViolations(page);

    await admissions.getByRole("link", { name: "Edit Admissions Assistant" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit Agent");
    await expect(page.getByLabel("Name")).toHaveValue("Admissions Assistant");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/northfield$/);
    await card(page, "Admissions Assistant").getByRole("link").first().click();
    await expect(page).toHaveURL(/\/northfield\/agent\/admissions$/);
  });

  test("create an engagement agent with a logo and a stripped site code, see it home and in the navigation; then edit it", async ({
    signedInPage: page,
  }) => {
    test.slow(); // a long journey with two accessibility scans
    const id = unique();
    const name = `Alumni Helper ${id}`;
    await page.goto("/northfield");
    await group(page, "Engagement Agents").getByRole("link", { name: "Create New Agent" }).click();
    await expect(page).toHaveURL(/\/northfield\/build-agent\?type=engagement$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create Agent");
    await expect(page).toHaveTitle("Create Agent · Assistant Console");
    await expect(page.getByLabel("Agent Type")).toHaveValue("Engagement");
    await expect(page.getByLabel("Agent Type")).toHaveAttribute("readonly", "");
    await expect(page.getByLabel("Mode")).toBeDisabled();
    await expect(page.getByLabel("Mode").locator("option:checked")).toHaveText("Sandbox");
    await expect(page.getByLabel("Status")).toHaveValue("active");
    await expect(page.getByLabel("Logo")).toHaveAttribute("accept", ".svg,.png,.img");
    await expectNoSeriousAxeViolations(page);

    await page.getByLabel("Name").fill(name);
    await typeSiteCode(page, `alumni-${id}_help!`, `alumni${id}help`);
    await page.getByLabel("Logo").setInputFiles(pngOnDisk());
    await page.getByLabel("URL", { exact: true }).fill("https://www.northfield.edu/alumni");
    await page.getByRole("button", { name: "Create" }).click();

    await expect(page).toHaveURL(/\/northfield$/);
    await expect(page.getByTestId("toast")).toContainText(`${name} created`);
    const created = group(page, "Engagement Agents").getByTestId("agent-card").filter({ hasText: name });
    await expect(created.getByRole("link").first()).toHaveAttribute("href", `/northfield/agent/alumni${id}help`);
    await expect(created.getByTestId("agent-logo")).toHaveAttribute("src", /^\/storage\/public\/agents\/\d+\/.+\.png$/);
    await expect(created).toContainText(`Engagement · alumni${id}help`);
    await expect(
      page.getByRole("navigation", { name: "Client navigation" }).getByRole("link", { name }),
    ).toHaveAttribute("href", `/northfield/agent/alumni${id}help`);

    await created.getByRole("link", { name: `Edit ${name}` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit Agent");
    await expect(page.getByLabel("Site Code")).toHaveValue(`alumni${id}help`);
    await expect(page.getByAltText("Current logo")).toHaveAttribute("src", /\.png$/);
    await page.getByLabel("Name").fill(`${name} Renamed`);
    await page.getByLabel("Status").selectOption("inactive");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/northfield$/);
    await expect(page.getByTestId("toast")).toContainText(`${name} Renamed saved`);
    const edited = card(page, `${name} Renamed`);
    await expect(edited).toContainText("Inactive");
    await expect(edited.getByTestId("agent-logo")).toBeVisible();
  });

  test("Create stays disabled until the client home has loaded, so a second press cannot post the agent again", async ({
    signedInPage: page,
  }) => {
    const id = unique();
    await page.goto("/northfield/build-agent?type=enrollment");
    await page.getByLabel("Name").fill(`Once ${id}`);
    await typeSiteCode(page, `once${id}`, `once${id}`);
    // The client home's data, asked for once the agent is created, is held until the button is checked.
    let submitted = false;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let homeAsked!: () => void;
    const asked = new Promise<void>((resolve) => (homeAsked = resolve));
    await page.route(
      (url) => url.pathname === "/northfield" && url.searchParams.has("_data"),
      async (route) => {
        if (submitted) {
          homeAsked();
          await held;
        }
        await route.continue();
      },
    );
    submitted = true;
    await page.getByRole("button", { name: "Create" }).click();
    await asked;
    await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/northfield$/);
    await expect(page.getByTestId("toast")).toContainText(`Once ${id} created`);
  });

  test("a logo too large to send is said beside the logo, with what was typed kept", async ({ signedInPage: page }) => {
    const id = unique();
    await page.goto("/northfield/build-agent?type=enrollment");
    await page.getByLabel("Name").fill(`Poster ${id}`);
    await typeSiteCode(page, `poster${id}`, `poster${id}`);
    // From a file on disk: the browser reads it itself, where a buffer would cross Playwright's pipe as text.
    await page.getByLabel("Logo").setInputFiles(pngOnDisk(new Uint8Array(12 * 1024 * 1024), "poster.png"));
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText("The chosen logo is larger than 2 MB: choose a smaller image")).toBeVisible();
    await expect(page.getByLabel("Logo")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Name")).toHaveValue(`Poster ${id}`);
    await expect(page.getByLabel("Site Code")).toHaveValue(`poster${id}`);
    await expect(page).toHaveURL(/\/northfield\/build-agent\?type=enrollment$/);
  });

  test("a site code in use comes back next to the field, with what was typed kept", async ({ signedInPage: page }) => {
    await page.goto("/northfield/build-agent?type=enrollment");
    await page.getByLabel("Name").fill("Second Admissions");
    await typeSiteCode(page, "admis.sions", "admissions");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(
      page.getByText("The site code admissions is already used by another agent of this client"),
    ).toBeVisible();
    await expect(page.getByLabel("Site Code")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Name")).toHaveValue("Second Admissions");
  });

  test("an ecommerce client shows only 'Ecommerce Agents'", async ({ signedInPage: page }) => {
    await page.goto("/shopharbor-outfitters");
    await expect(page.getByTestId("agent-group").getByRole("heading", { level: 2 })).toHaveText(["Ecommerce Agents"]);
    await expect(
      group(page, "Ecommerce Agents").getByTestId("agent-card").filter({ hasText: "Shop Assistant" }),
    ).toHaveCount(1);
    await expect(group(page, "Ecommerce Agents").getByRole("link", { name: "Create New Agent" })).toHaveAttribute(
      "href",
      "/shopharbor-outfitters/build-agent?type=ecommerce",
    );
    await expect(page.getByRole("region", { name: "Enrollment Agents" })).toHaveCount(0);
  });

  test("Export App reads 'Exporting...' while it runs, then toasts; the export downloads from Admin Downloads", async ({
    signedInPage: page,
  }) => {
    test.slow(); // export, listing, download and an accessibility scan
    await page.goto("/northfield");
    // Hold the export's request a moment so its running state can be seen.
    await page.route(
      (url) => url.pathname === "/northfield" && url.searchParams.has("_data"),
      async (route) => {
        if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 800));
        await route.continue();
      },
    );
    await page.getByRole("button", { name: "Export App" }).click();
    await expect(page.getByRole("button", { name: "Exporting..." })).toBeDisabled();
    await expect(page.getByTestId("toast")).toContainText("Export completed successfully");
    await expect(page.getByRole("button", { name: "Export App" })).toBeEnabled();

    await page.goto("/northfield/admin-downloads");
    await expect(page).toHaveTitle("Admin Downloads · Northfield University · Assistant Console");
    await expect(page.getByRole("columnheader")).toHaveText(["File Name", "File Type", "Timestamp", "Size", "Actions"]);
    const row = page.locator("tbody tr[data-file-type='app_export']");
    await expect(row.locator("td").nth(1)).toHaveText("App Export");
    await expect(row.locator("td").nth(2)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    await expect(row.locator("td").nth(3)).toHaveText(/^\d+(\.\d)? (B|KB|MB)$/);
    await expectNoSeriousAxeViolations(page);

    const fileName = (await row.locator("td").first().textContent())!;
    const downloading = page.waitForEvent("download");
    await row.getByRole("button", { name: /^Download/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(fileName);
    const content = JSON.parse(readFileSync(await download.path(), "utf8"));
    expect(JSON.stringify(content)).toContain("Northfield University");
    await expect(page).toHaveURL(/\/northfield\/admin-downloads$/);

    // The agent-level page lists the client's files too: its newest export, which another journey
    // exporting Northfield at the same time may have made after this one.
    await page.goto("/northfield/agent/admissions/admin-downloads");
    await expect(page.locator("tbody tr[data-file-type='app_export'] td").first()).toHaveText(
      /^northfield_\d{8}-\d{6}-\d{3}\.json$/,
    );
  });

  test("Admin Downloads of a client without files says so", async ({ signedInPage: page }) => {
    const urlCode = `empty${unique()}`;
    await createClient(page.request, urlCode);
    await page.goto(`/${urlCode}/admin-downloads`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admin Downloads");
    await expect(page.getByRole("cell", { name: "No files found for this client." })).toBeVisible();
  });

  test("a client user sees no create or edit controls, a disabled Export App and a disabled form", async ({ page }) => {
    await signIn(page, "client.user@example.com");
    await page.goto("/northfield");
    await expect(card(page, "Admissions Assistant")).toBeVisible();
    await expect(page.getByRole("link", { name: /^Edit / })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Create New Agent" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Export App" })).toBeDisabled();

    const response = await page.request.get("/northfield/admin-downloads");
    expect(response.status()).toBe(200);

    // A new agent's form has no agent to view: it says what the user may not do there.
    await page.goto("/northfield/build-agent?type=engagement");
    await expect(page.getByText("You may not create agents for this client.")).toBeVisible();
    await expect(page.getByText("You can view this agent but not change it.")).toHaveCount(0);
    await expect(page.getByLabel("Name")).toBeDisabled();
    await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();

    // The agent's own form (a client user has no edit button to it), by the id the client home's data gives.
    await page.goto("/northfield");
    const admissionsId = await page.evaluate(async () => {
      const response = await fetch("/northfield?_data=routes%2F%24appName._index");
      const data = (await response.json()) as { groups: { agents: { id: number; site_code: string }[] }[] };
      return data.groups.flatMap((g) => g.agents).find((a) => a.site_code === "admissions")!.id;
    });
    await page.goto(`/northfield/build-agent?id=${admissionsId}`);
    await expect(page.getByText("You can view this agent but not change it.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the build-agent form creates an agent (the server strips the site code) and refuses a site code in use", async ({
    page,
  }) => {
    const id = unique();
    const name = `Library Desk ${id}`;
    await signIn(page);
    await page.goto("/northfield");
    await group(page, "Enrollment Agents").getByRole("link", { name: "Create New Agent" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create Agent");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Site Code").fill(`lib-${id}.desk`);
    await page.getByLabel("Logo").setInputFiles(pngOnDisk());
    await page.getByRole("button", { name: "Create" }).click();

    await expect(page).toHaveURL(/\/northfield$/);
    await expect(page.getByTestId("toast")).toContainText(`${name} created`);
    const created = group(page, "Enrollment Agents").getByTestId("agent-card").filter({ hasText: name });
    await expect(created.getByRole("link").first()).toHaveAttribute("href", `/northfield/agent/lib${id}desk`);
    await expect(created.getByTestId("agent-logo")).toBeVisible();

    await page.goto("/northfield/build-agent?type=engagement");
    await page.getByLabel("Name").fill("Duplicate Desk");
    await page.getByLabel("Site Code").fill(`lib${id}-desk`);
    await page.getByLabel("URL", { exact: true }).fill("https://dup.example");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(
      page.getByText(`The site code lib${id}desk is already used by another agent of this client`),
    ).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("Duplicate Desk");
    await expect(page.getByLabel("Site Code")).toHaveValue(`lib${id}desk`);
    await expect(page.getByLabel("URL", { exact: true })).toHaveValue("https://dup.example");
    await expect(page.getByLabel("Agent Type")).toHaveValue("Engagement");
  });

  test("a logo past 2 MB, even a 12 MB photograph, is said beside the logo, with every other field kept as typed", async ({
    page,
  }) => {
    const id = unique();
    await signIn(page);
    await page.goto("/northfield/build-agent?type=enrollment");
    const logo = page.getByLabel("Logo");
    await expect(logo).toHaveAccessibleDescription("One .svg, .png or .img file, at most 2 MB.");
    await page.getByLabel("Name").fill(`Campus Photo ${id}`);
    await page.getByLabel("Site Code").fill(`photo-${id}`);
    await page.getByLabel("URL", { exact: true }).fill(`https://photo-${id}.example`);
    await page.getByLabel("Status").selectOption({ label: "Inactive" });
    // Larger than the whole form may keep (11 MB): read to its end and left out all the same.
    await logo.setInputFiles(pngOnDisk(pngOfAtLeast(12 * 1024 * 1024), "campus-photo.png"));
    await page.getByRole("button", { name: "Create" }).click();

    await expect(page).toHaveURL(/\/northfield\/build-agent\?type=enrollment$/);
    await expect(logo).toHaveAttribute("aria-invalid", "true");
    await expect(logo).toHaveAccessibleDescription(/The chosen logo is larger than 2 MB: choose a smaller image/);
    await expect(page.getByLabel("Name")).toHaveValue(`Campus Photo ${id}`);
    await expect(page.getByLabel("Site Code")).toHaveValue(`photo${id}`);
    await expect(page.getByLabel("URL", { exact: true })).toHaveValue(`https://photo-${id}.example`);
    await expect(page.getByLabel("Status")).toHaveValue("inactive");
    await expect(page.getByLabel("Agent Type")).toHaveValue("Enrollment");

    await page.goto("/northfield");
    await expect(page.getByTestId("agent-card").filter({ hasText: `Campus Photo ${id}` })).toHaveCount(0);
  });

  test("edit an agent, export the client and download the export", async ({ page }) => {
    const id = unique();
    await signIn(page);
    await page.goto("/northfield/build-agent?type=enrollment");
    await page.getByLabel("Name").fill(`Careers ${id}`);
    await page.getByLabel("Site Code").fill(`careers${id}`);
    await page.getByRole("button", { name: "Create" }).click();
    await card(page, `Careers ${id}`)
      .getByRole("link", { name: `Edit Careers ${id}` })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit Agent");
    await page.getByLabel("Name").fill(`Careers Office ${id}`);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText(`Careers Office ${id} saved`);
    await expect(card(page, `Careers Office ${id}`)).toBeVisible();

    await page.getByRole("button", { name: "Export App" }).click();
    await expect(page.getByTestId("toast")).toContainText("Export completed successfully");
    await page.goto("/northfield/admin-downloads");
    const downloading = page.waitForEvent("download");
    // The newest export first: other journeys export Northfield too.
    await page
      .locator("tbody tr[data-file-type='app_export']")
      .first()
      .getByRole("button", { name: /^Download/ })
      .click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/northfield.*\.json$/);
  });
});
