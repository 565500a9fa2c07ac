import type { Page } from "@playwright/test";
import { makePdf, notAPdf } from "../support/pdf";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";
import { E2E } from "./ports";

const PAGE = "/northfield/agent/admissions/knowledge-store/files";
const LEGACY_PAGE = "/northfield/ai-training/files";

/** Tests share one server and run in parallel: every file name is unique to its test. */
const unique = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const pdfFile = (name: string, pages: string[][], options: Parameters<typeof makePdf>[1] = {}) => ({
  name,
  mimeType: "application/pdf",
  buffer: makePdf(pages, options),
});
const rowOf = (page: Page, fileName: string) =>
  page.getByRole("row").filter({ has: page.getByRole("cell", { name: fileName, exact: false }) });
const statusOf = (page: Page, fileName: string) => rowOf(page, fileName).locator("[data-status]");

test.describe("with JavaScript", () => {
  test("uploads PDFs with progress, keeps the user on the page meanwhile, and shows each file's outcome", async ({
    signedInPage: page,
  }) => {
    const stem = unique("handbook");
    const good = `${stem}.pdf`;
    const locked = `${stem}-locked.pdf`;
    const renamed = `${stem}-slides.pdf`;
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Files");
    await expectNoSeriousAxeViolations(page);

    // A slow line, so the upload is seen in flight: about 1.5 MB at 400 KB/s.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 400 * 1024,
    });
    // Past a hundred pages, so its chunks open a hundred at a time.
    const appendix = Array.from({ length: 100 }, (_, n) => [`Appendix note ${n + 1}.`]);
    const big = makePdf(
      [["Welcome to the Northfield handbook."], ["Tuition is due on the first of March."], ...appendix],
      {
        title: "Handbook",
        outline: [
          { title: "Welcome", page: 1 },
          { title: "Money", page: 2 },
        ],
      },
    );
    // Bytes after the end marker are ignored by readers: padding that keeps it a valid PDF.
    const padded = Buffer.concat([big, Buffer.from(`\n%${"x".repeat(1_500_000)}\n`)]);

    await page
      .getByLabel("PDF files to upload")
      .setInputFiles([
        { name: good, mimeType: "application/pdf", buffer: padded },
        pdfFile(locked, [["Secret"]], { encrypted: true }),
        { name: renamed, mimeType: "application/pdf", buffer: notAPdf() },
      ]);
    const button = page.getByRole("button", { name: "Uploading…" });
    await expect(button).toBeDisabled();
    const progress = page.getByLabel(`Upload of ${good}`);
    await expect.poll(async () => Number(await progress.getAttribute("value")), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(Number(await progress.getAttribute("value"))).toBeLessThan(1);

    // Leaving through the console's own navigation waits for the upload.
    await page.getByRole("link", { name: "Websites" }).first().click();
    await expect(page.getByTestId("toast")).toContainText("Files are still uploading");
    await expect(page).toHaveURL(new RegExp(`${PAGE}$`));

    await expect(page.getByRole("button", { name: "+ Upload Files" })).toBeEnabled({ timeout: 20_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect(progress).toHaveAttribute("value", "1");
    await expect(page.getByRole("list", { name: "Uploads" })).toContainText(`${renamed}`);
    await expect(page.getByRole("list", { name: "Uploads" }).getByRole("alert")).toHaveText(
      "Failed to upload file: This file is not a PDF (its content is not PDF data)",
    );
    await expect(page.getByTestId("toast")).toContainText(
      "2 files uploaded; indexing has started. 1 file could not be uploaded: the reason is beside each.",
    );

    await expect(statusOf(page, good)).toHaveText("indexed", { timeout: 20_000 });
    await expect(rowOf(page, good)).toContainText("102 pages");
    await expect(statusOf(page, locked)).toHaveText("failed_to_index");
    await expect(rowOf(page, locked)).toContainText("password-protected");
    await expect(statusOf(page, renamed)).toHaveText("failed_to_upload");
    await expect(rowOf(page, good).getByRole("link", { name: /Open PDF/ })).toHaveAttribute(
      "href",
      /^\/storage\/download\?/,
    );
    await expectNoSeriousAxeViolations(page);

    // The file's chunks, like a URL's.
    await rowOf(page, good)
      .getByRole("link", { name: /View chunks/ })
      .click();
    const drawer = page.getByRole("dialog", { name: `Chunks for file ${good}` });
    await expect(drawer.getByTestId("chunks-json")).toContainText('"Money"');
    await expect(drawer.getByTestId("chunks-json")).toContainText("Tuition is due on the first of March.");
    const chunkPages = drawer.getByRole("navigation", { name: "Chunk pages" });
    await expect(chunkPages).toContainText("Chunks 1–100 of 102");
    // While the next page is on its way the drawer says it is loading, not the page before as if current.
    let releaseNextPage = () => {};
    const nextPageHeld = new Promise<void>((resolve) => (releaseNextPage = resolve));
    await page.route(/chunks_page=2/, async (route) => {
      await nextPageHeld;
      await route.continue();
    });
    await chunkPages.getByRole("link", { name: "Next chunks" }).click();
    await expect(drawer.getByRole("status", { name: "Loading chunks" })).toBeVisible();
    await expect(drawer.getByTestId("chunks-json")).toHaveCount(0);
    releaseNextPage();
    await expect(chunkPages).toContainText("Chunks 101–102 of 102");
    await expect(drawer.getByTestId("chunks-json")).toContainText("Appendix note 100.");
    await expect(drawer.getByTestId("chunks-json")).not.toContainText("Tuition");
    await expect(chunkPages.getByRole("link", { name: "Next chunks" })).toHaveCount(0);
    // An input method's Escape cancels the word being composed; it leaves the drawer open. A plain Escape closes it.
    await page.evaluate(() => window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", isComposing: true })));
    // Closing navigates and loads the page's data: once the network is idle, a closed drawer would be gone.
    await page.waitForLoadState("networkidle");
    await expect(drawer).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
  });

  test("tags save as they are ticked; search narrows the list; a file is deleted after a question", async ({
    signedInPage: page,
  }) => {
    const name = `${unique("aid")}.pdf`;
    await page.goto(PAGE);
    await page.getByLabel("PDF files to upload").setInputFiles([pdfFile(name, [["Aid is need-based."]])]);
    await expect(page.getByTestId("toast")).toContainText("1 file uploaded; indexing has started");
    await expect(statusOf(page, name)).toHaveText("indexed", { timeout: 20_000 });

    await rowOf(page, name).getByLabel("Production").check();
    await expect(page.getByTestId("toast")).toContainText(`Tags of ${name} saved`);
    await page.reload();
    await expect(rowOf(page, name).getByLabel("Production")).toBeChecked();
    await expect(rowOf(page, name).getByLabel("Sandbox")).not.toBeChecked();

    await page.getByRole("searchbox", { name: "Search files" }).fill(name.slice(0, 12));
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/search=/);
    await expect(page.getByRole("table", { name: "Files" }).getByRole("row")).toHaveCount(2);
    await page.getByRole("searchbox", { name: "Search files" }).fill("no-such-file-anywhere");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No files match “no-such-file-anywhere”.")).toBeVisible();

    await page.goto(`${PAGE}?search=${encodeURIComponent(name)}`);
    await rowOf(page, name)
      .getByRole("link", { name: /Delete/ })
      .click();
    await expect(page.getByRole("alert").filter({ hasText: `Delete ${name}?` })).toBeVisible();
    // The question takes the focus as it opens, so that it is read out (and seen below a long list).
    await expect(page.getByRole("form", { name: "Delete file" })).toBeFocused();
    await page.getByRole("button", { name: "Delete file" }).click();
    await expect(page.getByTestId("toast")).toContainText(`Deleted ${name}`);
    await expect(page.getByText("No files match")).toBeVisible();
  });

  test("the upload button still has the keyboard focus once its files are uploaded", async ({ signedInPage: page }) => {
    const name = `${unique("focus")}.pdf`;
    await page.goto(PAGE);
    const button = page.getByRole("button", { name: "+ Upload Files" });
    await button.focus();
    await page.getByLabel("PDF files to upload").setInputFiles([pdfFile(name, [["Focus stays."]])]);
    await expect(page.getByTestId("toast")).toContainText("1 file uploaded; indexing has started");
    await expect(button).toBeEnabled();
    await expect(button).toBeFocused();
  });

  test("a tag the API refuses says why and is not left ticked", async ({ signedInPage: page }) => {
    const name = `${unique("gone")}.pdf`;
    await page.goto(PAGE);
    await page.getByLabel("PDF files to upload").setInputFiles([pdfFile(name, [["Gone soon."]])]);
    await expect(page.getByTestId("toast")).toContainText("1 file uploaded; indexing has started");
    await page.goto(`${PAGE}?search=${encodeURIComponent(name)}`);
    // Indexed, so this page no longer reads the list every few seconds: it keeps showing the row.
    await expect(statusOf(page, name)).toHaveText("indexed", { timeout: 20_000 });

    // Another tab deletes the file while this one still shows it.
    const other = await page.context().newPage();
    await other.goto(`${PAGE}?search=${encodeURIComponent(name)}`);
    await rowOf(other, name)
      .getByRole("link", { name: /Delete/ })
      .click();
    await other.getByRole("button", { name: "Delete file" }).click();
    await expect(other.getByTestId("toast")).toContainText(`Deleted ${name}`);
    await other.close();

    await rowOf(page, name).getByLabel("Production").check();
    await expect(page.getByTestId("toast")).toContainText("Tags not saved: File not found");
    // Not left ticked as if saved (the row goes once the list is read again).
    await expect(rowOf(page, name).getByRole("checkbox", { name: "Production", checked: true })).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Files");
  });

  test("a client user sees the files but cannot upload, tag or delete", async ({ page }) => {
    await signIn(page, "client.user@example.com");
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Files");
    await expect(page.getByRole("button", { name: "+ Upload Files" })).toHaveCount(0);
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^Delete/ })).toHaveCount(0);
  });
});

test("a console started with API_URL passes the signed upload on to the API host", async ({ page }) => {
  const remote = `http://127.0.0.1:${E2E.remoteConsolePort}`;
  const name = `${unique("remote")}.pdf`;
  await page.goto(`${remote}/login`);
  await page.getByLabel("Email").fill("client.admin@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByRole("navigation", { name: "Global navigation" })).toBeVisible();
  await page.goto(`${remote}${PAGE}`);
  await page.getByLabel("PDF files to upload").setInputFiles([pdfFile(name, [["Uploaded through a remote console."]])]);
  await expect(page.getByTestId("toast")).toContainText("1 file uploaded; indexing has started");
  await expect(statusOf(page, name)).toHaveText("indexed", { timeout: 20_000 });
  const pdf = await page.request.get(
    `${remote}${await rowOf(page, name)
      .getByRole("link", { name: /Open PDF/ })
      .getAttribute("href")}`,
  );
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a search keeps the rows per page the operator chose; the rows per page close a delete question", async ({
    signedInPage: page,
  }) => {
    const stem = unique("rows");
    await page.goto(PAGE);
    await page.getByLabel("PDF files to upload").setInputFiles([pdfFile(`${stem}.pdf`, [["Rows per page."]])]);
    await page.getByRole("button", { name: "+ Upload Files" }).click();
    await expect(page.getByTestId("toast")).toContainText("1 file uploaded; indexing has started");
    await page.goto(`${PAGE}?page_size=20`);
    await expect(page.getByLabel("Rows per page")).toHaveValue("20");
    await page.getByRole("searchbox", { name: "Search files" }).fill(stem);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`search=${stem}`));
    expect(new URL(page.url()).searchParams.get("page_size")).toBe("20");
    await expect(page.getByLabel("Rows per page")).toHaveValue("20");

    // Another number of rows while the delete question is open closes the question, keeping the search.
    await page
      .getByRole("row", { name: new RegExp(stem) })
      .getByRole("link", { name: /Delete/ })
      .click();
    await expect(page.getByRole("form", { name: "Delete file" })).toBeVisible();
    await page.getByLabel("Rows per page").selectOption("50");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByLabel("Rows per page")).toHaveValue("50");
    await expect(page.getByRole("form", { name: "Delete file" })).toHaveCount(0);
    expect(new URL(page.url()).searchParams.get("search")).toBe(stem);
  });

  test("the form uploads on the server, reports per file, saves tags and deletes", async ({ signedInPage: page }) => {
    const stem = unique("nojs");
    const good = `${stem}-guide.pdf`;
    const bad = `${stem}-notes.pdf`;
    await page.goto(LEGACY_PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Files");

    await page
      .getByLabel("PDF files to upload")
      .setInputFiles([
        pdfFile(good, [
          ["Campus tours run on Fridays."],
          ...Array.from({ length: 100 }, (_, n) => [`Route ${n + 2}.`]),
        ]),
        { name: bad, mimeType: "application/pdf", buffer: notAPdf() },
      ]);
    await page.getByRole("button", { name: "+ Upload Files" }).click();
    const uploads = page.getByRole("list", { name: "Uploads" }).getByRole("listitem");
    await expect(uploads.filter({ hasText: bad })).toContainText("Failed to upload file: This file is not a PDF");
    await expect(uploads.filter({ hasText: good })).toContainText("Uploaded");
    // What went in is said too, not only what was refused.
    await expect(page.getByRole("alert").filter({ hasText: "indexing has started" })).toHaveText(
      "1 file uploaded; indexing has started. 1 file could not be uploaded: the reason is beside each.",
    );

    await page.getByLabel("PDF files to upload").setInputFiles([pdfFile(`${stem}-second.pdf`, [["Second file."]])]);
    await page.getByRole("button", { name: "+ Upload Files" }).click();
    await expect(page.getByTestId("toast")).toContainText("1 file uploaded; indexing has started");

    await expect
      .poll(
        async () => {
          await page.goto(`${LEGACY_PAGE}?search=${stem}`);
          return statusOf(page, good).textContent();
        },
        { timeout: 20_000 },
      )
      .toBe("indexed");

    await rowOf(page, good).getByLabel("Sandbox").check();
    await rowOf(page, good).getByRole("button", { name: "Save tags" }).click();
    await expect(page.getByTestId("toast")).toContainText(`Tags of ${good} saved`);
    await expect(rowOf(page, good).getByLabel("Sandbox")).toBeChecked();

    await rowOf(page, good)
      .getByRole("link", { name: /View chunks/ })
      .click();
    await expect(page.getByTestId("chunks-json")).toContainText("Campus tours run on Fridays.");
    await page.getByRole("link", { name: "Next chunks" }).click();
    await expect(page.getByRole("navigation", { name: "Chunk pages" })).toContainText("Chunks 101–101 of 101");
    await expect(page.getByTestId("chunks-json")).toContainText("Route 101.");
    await page.getByRole("link", { name: "A+" }).click();
    await expect(page.getByText("16px")).toBeVisible();
    // The font size keeps the page of chunks.
    await expect(page.getByTestId("chunks-json")).toContainText("Route 101.");
    await page.getByRole("link", { name: /Close/ }).click();

    await rowOf(page, good)
      .getByRole("link", { name: /Delete/ })
      .click();
    await page.getByRole("button", { name: "Delete file" }).click();
    await expect(page.getByTestId("toast")).toContainText(`Deleted ${good}`);
    await expect(rowOf(page, good)).toHaveCount(0);
  });
});
