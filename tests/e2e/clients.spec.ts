import type { APIRequestContext, Page } from "@playwright/test";
import { pngOfAtLeast, pngOnDisk } from "../support/files";
import { endSession, expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";

/** Tests run in parallel against one server: every client they make gets its own url_code. */
const uniqueCode = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`;

/** A test client's fields, by its url code and name. */
const clientFields = (urlCode: string, clientName: string) => ({
  client_name: clientName,
  url_code: urlCode,
  client_type: "ecommerce",
  country: "EU",
  market: `eu_${urlCode}`,
});

/** The API as a staff member: development sign-in gives a user token. */
async function apiAsAdmin(request: APIRequestContext) {
  const signedIn = await request.post("/auth/dev", { data: { email: "admin@example.com" } });
  expect(signedIn.ok()).toBe(true);
  const { user_token } = (await signedIn.json()) as { user_token: string };
  const headers = { authorization: `Bearer ${user_token}` };
  return {
    async createClient(urlCode: string, clientName: string) {
      const response = await request.post("/v1/apps", { headers, data: clientFields(urlCode, clientName) });
      expect(response.status()).toBe(201);
      return ((await response.json()) as { id: number }).id;
    },
    async renameClient(appId: number, urlCode: string, clientName: string) {
      const response = await request.put(`/v1/apps/${appId}`, { headers, data: clientFields(urlCode, clientName) });
      expect(response.ok()).toBe(true);
    },
    async exportClient(appId: number) {
      const response = await request.post(`/v1/apps/${appId}/exports/export`, { headers });
      expect(response.ok()).toBe(true);
      return ((await response.json()) as { file_name: string }).file_name;
    },
  };
}

/**
 * The Notes of a new client typed, the session ended before Save, signed in again on the sign-in
 * page it leads to: the page offers what was typed, and sending it saves it.
 */
async function saveAfterTheSessionEnded(page: Page) {
  const code = uniqueCode("unsent");
  await (await apiAsAdmin(page.request)).createClient(code, "Unsent Typing College");
  await page.goto(`/${code}/manage`);
  const notes = `Typed before the session ended\nOn two lines ${code}`;
  await page.getByLabel("Notes").fill(notes);
  await endSession(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByRole("alert")).toHaveText(
    "Your session ended before that could be done, so nothing was saved yet. Sign in, and what you sent is offered again.",
  );
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page).toHaveURL(new RegExp(`/${code}/manage$`));
  const offer = page.getByRole("region", { name: "Not sent" });
  await expect(offer).toContainText("Your session ended before this was sent, so it was not saved. Send it again now?");
  await offer.getByRole("button", { name: "Send it again" }).click();
  await expect(page.getByTestId("toast")).toBeVisible();
  await expect(offer).toHaveCount(0);
  await page.goto(`/${code}/manage`);
  await expect(page.getByLabel("Notes")).toHaveValue(notes);
  await expect(page.getByRole("region", { name: "Not sent" })).toHaveCount(0);
}

/**
 * A client exported, then renamed, and its export ticked and imported: Import Selected asks first,
 * since the import would change a client that exists. The question is open when this returns.
 */
async function askToImportOverALiveClient(page: Page, name: string) {
  const api = await apiAsAdmin(page.request);
  const code = uniqueCode(name.split(" ")[0].toLowerCase());
  const appId = await api.createClient(code, name);
  const fileName = await api.exportClient(appId);
  await api.renameClient(appId, code, `${name} renamed`);
  await page.goto("/clients/import");
  await page.getByRole("checkbox", { name: fileName }).check();
  await page.getByRole("button", { name: "Import Selected" }).click();
  return { api, appId, code, fileName };
}

const tab = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Client types" }).getByRole("link", { name: new RegExp(`^${name} \\(`) });

test.describe("with JavaScript", () => {
  test("what was typed when the session ended is offered again after signing in, and saved", async ({
    signedInPage: page,
  }) => {
    await saveAfterTheSessionEnded(page);
  });

  test("onboard a client: url_code follows the website until edited, the logo uploads, the client opens; then edit it", async ({
    signedInPage: page,
  }) => {
    const code = uniqueCode("lakeside");
    await page.goto("/clients");
    await page.getByRole("link", { name: "+ Create New Client" }).click();
    await expect(page).toHaveURL(/\/clients\/new-client$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("OnBoard Client");
    await expect(page.getByRole("link", { name: "Cancel" })).toHaveAttribute("href", "/admin");
    await expect(page.getByLabel("Onboard existing client")).toBeChecked();
    await expect(page.getByLabel("Mode")).toHaveValue("staging");
    await expect(page.getByLabel("Mode").locator("option:checked")).toHaveText("Sandbox");
    await expect(page.getByLabel("Notes")).toHaveAttribute("rows", "3");
    await expect(page.getByLabel("Country").locator("option").first()).toHaveText("Select");
    await expectNoSeriousAxeViolations(page);

    await page.getByLabel("Client Name").fill("Lakeside College");
    await page.getByLabel("Primary Website").pressSequentially(`https://apply.${code}.edu`);
    await expect(page.getByLabel("URL Code")).toHaveValue(`apply${code}`);
    await page.getByLabel("Primary Website").fill(`https://www.${code}.edu`);
    await expect(page.getByLabel("URL Code")).toHaveValue(code);

    await page.getByLabel("Country").selectOption({ label: "United Kingdom (UK)" });
    await expect(page.getByLabel("Market", { exact: true })).toHaveValue(`uk_${code}`);
    await page.getByLabel("Copy Market").selectOption({ label: "Higher Edu - Engage" });
    await expect(page.getByLabel("Client Type")).toHaveValue("higher_ed");
    await page.getByLabel("Copy Market").selectOption({ label: "Ecommerce" });
    await expect(page.getByLabel("Client Type")).toHaveValue("ecommerce");
    await page.getByLabel("Copy Market").selectOption({ label: "Higher Edu - Enroll" });

    // Once the user edits url_code, the website no longer drives it.
    const chosen = `${code}-college`;
    await page.getByLabel("URL Code").fill(chosen);
    await page.getByLabel("Primary Website").fill(`https://www.${code}-elsewhere.edu`);
    await expect(page.getByLabel("URL Code")).toHaveValue(chosen);
    await expect(page.getByLabel("Market", { exact: true })).toHaveValue(`uk_${chosen}`);

    await page.getByLabel("Logo").setInputFiles(pngOnDisk());
    await page.getByLabel("Trigger Points").fill("apply, visit");
    await page.getByLabel("Notes").fill("First line\nSecond line");
    await page.getByRole("button", { name: "Create" }).click();

    await expect(page).toHaveURL(new RegExp(`/${chosen}/?$`));
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Lakeside College onboarded");
    await expect(toast).toContainText("Logo uploaded");
    await expect(page.getByTestId("selected-client")).toHaveText("Lakeside College");

    await page.goto(`/${chosen}/manage`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome Lakeside College");
    await expect(page.getByLabel("URL Code")).toHaveValue(chosen);
    await expect(page.getByLabel("URL Code")).toHaveAttribute("readonly", "");
    await expect(page.getByLabel("Country")).toBeDisabled();
    await expect(page.getByLabel("Country")).toHaveValue("UK");
    await expect(page.getByLabel("Client Type")).toHaveValue("higher_ed");
    await expect(page.getByLabel("Trigger Points")).toHaveValue("apply, visit");
    await expect(page.getByLabel("Notes")).toHaveValue("First line\nSecond line");
    await expect(page.getByTestId("logo-preview")).toHaveAttribute("src", /^\/storage\/public\/logos\/.+\.png$/);
    await expectNoSeriousAxeViolations(page);

    await page.getByLabel("Client Name").fill("Lakeside College of Arts");
    await page.getByLabel("Mode").selectOption({ label: "Production" });
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText("Saved");
    await expect(page).toHaveURL(new RegExp(`/${chosen}/manage$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome Lakeside College of Arts");
    await expect(page.getByLabel("Mode")).toHaveValue("production");
    await expect(page.getByTestId("logo-preview")).toHaveAttribute("src", /^\/storage\/public\/logos\/.+\.png$/);
  });

  test("a refused url_code shows next to its field, keeping what was typed", async ({ signedInPage: page }) => {
    await page.goto("/clients/new-client");
    await page.getByLabel("Client Name").fill("Clashing Client");
    await page.getByLabel("Primary Website").fill("https://www.northfield.edu");
    await page.getByLabel("Notes").fill("Keep this note");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText("The url_code northfield is already used by another client")).toBeVisible();
    await expect(page.getByLabel("URL Code")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Client Name")).toHaveValue("Clashing Client");
    await expect(page.getByLabel("Notes")).toHaveValue("Keep this note");
    await expect(page).toHaveURL(/\/clients\/new-client$/);
  });

  test("Save of the client profile keeps the keyboard focus once the client is saved", async ({
    signedInPage: page,
  }) => {
    const code = uniqueCode("focus");
    await (await apiAsAdmin(page.request)).createClient(code, "Focus Kept College");
    await page.goto(`/${code}/manage`);
    await page.getByLabel("Notes").fill(`Saved from the keyboard ${code}`);
    const save = page.getByRole("button", { name: "Save" });
    await save.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("toast")).toContainText("Saved");
    await expect(page.getByLabel("Notes")).toHaveValue(`Saved from the keyboard ${code}`);
    await expect(save).toBeFocused();
  });

  test("clients list: tabs per type, empty text, search as you type, a card opens its client", async ({
    signedInPage: page,
  }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Clients");
    await expect(page.getByRole("navigation", { name: "Client types" }).getByRole("link")).toHaveText([
      /^Higher Ed/,
      /^Ecommerce/,
    ]);
    await expect(tab(page, "Higher Ed")).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("client-card").filter({ hasText: "Northfield University" })).toContainText("Active");
    await expect(page.getByRole("link", { name: "Import Clients" })).toHaveAttribute("href", "/clients/import");
    await expectNoSeriousAxeViolations(page);

    await tab(page, "Ecommerce").click();
    await expect(page).toHaveURL(/[?&]type=ecommerce/);
    await expect(page.getByTestId("client-card").filter({ hasText: "Harbor Outfitters" })).toBeVisible();
    await expect(page.getByTestId("client-card").filter({ hasText: "Northfield University" })).toHaveCount(0);

    const search = page.getByRole("searchbox", { name: "Search clients" });
    await search.pressSequentially("zzz-no-such");
    await expect(page).toHaveURL(/[?&]search=zzz-no-such/);
    await expect(page.getByText("No clients found for this type")).toBeVisible();
    await expect(search).toBeFocused();

    await search.fill("harbor");
    await expect(page).toHaveURL(/[?&]search=harbor/);
    await expect(tab(page, "Ecommerce")).toHaveAttribute("aria-current", "page");
    await tab(page, "Higher Ed").click();
    await expect(page).toHaveURL(/type=higher_ed&search=harbor/);
    await expect(page.getByText("No clients found for this type")).toBeVisible();

    // A pasted link reproduces the screen.
    await page.goto("/clients?type=higher_ed&search=northfield");
    await expect(page.getByRole("searchbox", { name: "Search clients" })).toHaveValue("northfield");
    await page.getByTestId("client-card").filter({ hasText: "Northfield University" }).click();
    await expect(page).toHaveURL(/\/northfield\/?$/);
    await expect(page.getByTestId("selected-client")).toHaveText("Northfield University");
  });

  test("Back and Forward after two searches show, in the box, the search of the clients listed", async ({
    signedInPage: page,
  }) => {
    await page.goto("/clients");
    const search = page.getByRole("searchbox", { name: "Search clients" });
    const card = (name: string) => page.getByTestId("client-card").filter({ hasText: name });
    await search.fill("north");
    await search.press("Enter");
    await expect(page).toHaveURL(/[?&]search=north$/);
    await search.fill("harbor");
    await search.press("Enter");
    await expect(page).toHaveURL(/[?&]search=harbor$/);
    await expect(search).toBeFocused();
    await page.goBack();
    await expect(page).toHaveURL(/[?&]search=north$/);
    await expect(card("Northfield University")).toBeVisible();
    await expect(card("Harbor Outfitters")).toHaveCount(0);
    await expect(search).toHaveValue("north");
    await page.goForward();
    await expect(page).toHaveURL(/[?&]search=harbor$/);
    await expect(search).toHaveValue("harbor");
  });

  test("a client user sees their client without the create and import buttons, and may not edit it", async ({
    page,
  }) => {
    await signIn(page, "client.user@example.com");
    await page.goto("/clients");
    await expect(page.getByTestId("client-card").filter({ hasText: "Northfield University" })).toBeVisible();
    await expect(page.getByRole("link", { name: "+ Create New Client" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Import Clients" })).toHaveCount(0);
    await page.goto("/northfield/manage");
    await expect(page.getByLabel("Client Name")).toBeDisabled();
    await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  });

  test("import clients: select-all is indeterminate when partial; importing goes back to the list with a summary", async ({
    signedInPage: page,
  }) => {
    const api = await apiAsAdmin(page.request);
    const fileName = await api.exportClient(await api.createClient(uniqueCode("imported"), "Imported Client"));
    // A second file, so a single tick is a partial selection.
    await api.exportClient(await api.createClient(uniqueCode("another"), "Another Client"));

    await page.goto("/clients");
    await page.getByRole("link", { name: "Import Clients" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Import Clients");
    await expect(page.getByRole("link", { name: "Cancel" })).toHaveAttribute("href", "/clients");
    const importButton = page.getByRole("button", { name: "Import Selected" });
    const selectAll = page.getByRole("checkbox", { name: "Select all files" });
    await expect(importButton).toBeDisabled();
    await expectNoSeriousAxeViolations(page);

    const ours = page.getByRole("checkbox", { name: fileName });
    await ours.check();
    await expect(importButton).toBeEnabled();
    expect(await selectAll.evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(true);
    await expect(selectAll).not.toBeChecked();
    await selectAll.check();
    await expect(page.locator("tbody input[type=checkbox]:not(:checked)")).toHaveCount(0);
    expect(await selectAll.evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(false);
    await selectAll.uncheck();
    await expect(importButton).toBeDisabled();

    await ours.check();
    await importButton.click();
    await expect(page).toHaveURL(/\/clients$/);
    await expect(page.getByTestId("toast")).toContainText("Imported 1 file");
  });

  test("import over a live client asks again when the client changed after the question, then imports", async ({
    signedInPage: page,
  }) => {
    const { api, appId, code, fileName } = await askToImportOverALiveClient(page, "Asked Client");
    const changing = page.getByRole("list", { name: "Clients the import would change" });
    await expect(changing).toContainText(`Asked Client renamed exists: importing ${fileName} changes`);
    const confirm = page.getByRole("form", { name: "Replace what clients hold" });
    await expect(confirm).toBeFocused();

    await api.renameClient(appId, code, "Asked Client renamed again");
    await page.getByRole("button", { name: "Import and replace" }).click();
    await expect(page.getByText("What the import would change has changed since you were asked")).toBeVisible();
    await expect(changing).toContainText(`Asked Client renamed again exists: importing ${fileName} changes`);
    await expect(confirm).toBeFocused();
    await expect(page).toHaveURL(/\/clients\/import$/);

    await page.getByRole("button", { name: "Import and replace" }).click();
    await expect(page).toHaveURL(/\/clients$/);
    await expect(page.getByTestId("toast")).toContainText("Imported 1 file: Updated Asked Client");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("what was typed when the session ended is offered again after signing in, and saved", async ({
    signedInPage: page,
  }) => {
    await saveAfterTheSessionEnded(page);
  });

  test("the clients list searches with its button and switches tabs by link", async ({ signedInPage: page }) => {
    await page.goto("/clients");
    await page.getByRole("searchbox", { name: "Search clients" }).fill("harbor");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/clients\?search=harbor$/);
    await expect(tab(page, "Ecommerce")).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("client-card").filter({ hasText: "Harbor Outfitters" })).toBeVisible();
    await tab(page, "Higher Ed").click();
    await expect(page.getByText("No clients found for this type")).toBeVisible();
  });

  test("the onboard form derives a blank url_code on the server, uploads the logo and opens the client", async ({
    signedInPage: page,
  }) => {
    const code = uniqueCode("nojs");
    await page.goto("/clients/new-client");
    await page.getByLabel("Client Name").fill("No Script College");
    await page.getByLabel("Primary Website").fill(`https://www.${code}.edu`);
    await page.getByLabel("Country").selectOption({ label: "India (IN)" });
    await page.getByLabel("Copy Market").selectOption({ label: "Higher Edu - Enroll" });
    await page.getByLabel("Logo").setInputFiles(pngOnDisk());
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page).toHaveURL(new RegExp(`/${code}$`));
    await expect(page.getByTestId("toast")).toContainText("No Script College onboarded");

    await page.goto(`/${code}/manage`);
    await expect(page.getByLabel("URL Code")).toHaveValue(code);
    await expect(page.getByLabel("Market", { exact: true })).toHaveValue(`in_${code}`);
    await expect(page.getByLabel("Client Type")).toHaveValue("higher_ed");
    await expect(page.getByTestId("logo-preview")).toBeVisible();
    await page.getByLabel("Onboard existing client").uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText("Saved");
    await expect(page.getByLabel("Onboard existing client")).not.toBeChecked();
  });

  test("a logo past 2 MB is said beside the logo, with every other field kept as typed", async ({
    signedInPage: page,
  }) => {
    const code = uniqueCode("photo");
    await page.goto("/clients/new-client");
    const logo = page.getByLabel("Logo");
    await expect(logo).toHaveAccessibleDescription("An .svg, .png or .img file, at most 2 MB.");
    await page.getByLabel("Client Name").fill("Photo Logo College");
    await page.getByLabel("Primary Website").fill(`https://www.${code}.edu`);
    await page.getByLabel("Country").selectOption({ label: "India (IN)" });
    await page.getByLabel("Notes").fill("Logo taken from the brochure");
    await logo.setInputFiles(pngOnDisk(pngOfAtLeast(3 * 1024 * 1024)));
    await page.getByRole("button", { name: "Create" }).click();

    await expect(page).toHaveURL(/\/clients\/new-client$/);
    await expect(logo).toHaveAttribute("aria-invalid", "true");
    await expect(logo).toHaveAccessibleDescription(/The chosen logo is larger than 2 MB: choose a smaller image/);
    await expect(page.getByLabel("Client Name")).toHaveValue("Photo Logo College");
    await expect(page.getByLabel("Primary Website")).toHaveValue(`https://www.${code}.edu`);
    await expect(page.getByLabel("URL Code")).toHaveValue(code);
    await expect(page.getByLabel("Country")).toHaveValue("IN");
    await expect(page.getByLabel("Notes")).toHaveValue("Logo taken from the brochure");
  });

  test("errors come back from the server next to their fields", async ({ signedInPage: page }) => {
    await page.goto("/clients/new-client");
    await page.getByLabel("Client Name").fill("Reserved Words Ltd");
    await page.getByLabel("URL Code").fill("clients");
    await page
      .getByLabel("Logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText("logo.png does not contain a PNG image")).toBeVisible();
    await expect(page.getByLabel("Client Name")).toHaveValue("Reserved Words Ltd");

    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText("This url_code is used by the console itself; choose another")).toBeVisible();
    await expect(page.getByLabel("URL Code")).toHaveValue("clients");
  });

  test("import over a live client names it and what would change, and imports only once confirmed", async ({
    signedInPage: page,
  }) => {
    const { api, appId, code, fileName } = await askToImportOverALiveClient(page, "Live Client");
    const changing = page.getByRole("list", { name: "Clients the import would change" });
    await expect(changing).toContainText(`Live Client renamed exists: importing ${fileName} changes`);
    await expect(changing.getByRole("listitem").getByText("Client Profile: Client Name changed")).toBeVisible();
    await expect(page.getByText("Import this file, replacing what this client holds now?")).toBeVisible();
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/clients\/import\?file_name=/);
    await expect(page.getByRole("button", { name: "Import Selected" })).toBeVisible();

    await page.getByRole("checkbox", { name: fileName }).check();
    await page.getByRole("button", { name: "Import Selected" }).click();
    // Another operator renames the client while the question is open: nothing is imported, and
    // the question is asked again with what the import would change now.
    await api.renameClient(appId, code, "Live Client renamed again");
    await page.getByRole("button", { name: "Import and replace" }).click();
    await expect(page.getByText("What the import would change has changed since you were asked")).toBeVisible();
    await expect(changing).toContainText(`Live Client renamed again exists: importing ${fileName} changes`);

    await page.getByRole("button", { name: "Import and replace" }).click();
    await expect(page).toHaveURL(/\/clients$/);
    await expect(page.getByTestId("toast")).toContainText("Imported 1 file: Updated Live Client");
  });

  test("the files not imported stay ticked: after Cancel on the question, and in the address a failed import leads to", async ({
    signedInPage: page,
  }) => {
    const { fileName } = await askToImportOverALiveClient(page, "Ticked Client");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("checkbox", { name: fileName })).toBeChecked();
    // What is still ticked posts as it is: the question comes back without ticking it again.
    await page.getByRole("button", { name: "Import Selected" }).click();
    await expect(page.getByText("Import this file, replacing what this client holds now?")).toBeVisible();

    // A name the list does not hold ticks nothing.
    await page.goto(`/clients/import?${new URLSearchParams([["file_name", "nobody_20200101-000000.json"]])}`);
    await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(0);
  });

  test("import without a selection asks for one", async ({ signedInPage: page }) => {
    await page.goto("/clients/import");
    await page.getByRole("button", { name: "Import Selected" }).click();
    await expect(page.getByText("Select at least one file to import")).toBeVisible();
  });
});
