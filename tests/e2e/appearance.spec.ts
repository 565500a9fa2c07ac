import type { Locator, Page } from "@playwright/test";
import { PNG_BYTES, pngOfAtLeast, pngOnDisk } from "../support/files";
import { expect, expectNoSeriousAxeViolations, openWithScriptsHeld, signIn, test } from "./fixtures";

/**
 * Several tests save the admissions agent's appearance, some the same settings (a colour saved and
 * put back): run in parallel, a save could meet another's change of the same setting and be refused
 * as changed meanwhile. In order, in one worker, they never meet.
 */
test.describe.configure({ mode: "default" });

const STUDENT_SUCCESS = "/northfield/agent/studentsuccess/appearance";
const ADMISSIONS = "/northfield/agent/admissions/appearance";
const SHOP = "/shopharbor-outfitters/agent/shop/appearance";
/** The shop's client-wide trigger point (Default), which only the avatar test saves to. */
const SHOP_DEFAULT = "/shopharbor-outfitters/appearance";

test("a colour typed into the form shows in the live preview before saving; save; push after the diff", async ({
  signedInPage: page,
}) => {
  await page.goto(STUDENT_SUCCESS);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Appearance");
  const preview = page.frameLocator('iframe[title="Chat preview"]');
  // The preview opens by itself after a second.
  await expect(preview.getByRole("dialog", { name: "Virtual Assistant" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel("Primary Colour", { exact: true }).fill("#aa2200");
  await page.getByLabel("Assistant Name", { exact: true }).fill("Sage");
  await expect(preview.locator(".launcher")).toHaveCSS("background-color", "rgb(170, 34, 0)");
  await expect(preview.getByRole("dialog", { name: "Sage" })).toBeVisible();
  await expect(page.getByTestId("save-bar").getByRole("status")).toHaveText("Unsaved changes");

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Success!");
  await page.reload();
  await expect(page.getByLabel("Primary Colour", { exact: true })).toHaveValue("#aa2200");

  await page.getByRole("link", { name: "Push to production" }).click();
  const confirm = page.getByRole("form", { name: "Push to production" });
  await expect(confirm).toContainText("Are you sure?");
  await expect(confirm.getByRole("row", { name: /Primary Colour/ })).toContainText("#1f4b99#aa2200");
  await confirm.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByTestId("toast")).toContainText("Pushed to production");
  // Production now shows stage's values: nothing to ask, and no Yes that would push nothing.
  await page.getByRole("link", { name: "Push to production" }).click();
  const nothing = page.getByRole("group", { name: "Push to production" });
  await expect(nothing.getByRole("alert")).toHaveText(
    "Production already shows the stage values: there is nothing to push.",
  );
  await expect(nothing.getByRole("button")).toHaveCount(0);
  await nothing.getByRole("link", { name: "Close", exact: true }).click();
  await expect(nothing).toHaveCount(0);

  // A push sends what stage has saved: typed changes stay in the form, unsaved, and the question says so.
  await page.getByLabel("Assistant Name", { exact: true }).fill("Sage Two");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Success!");
  const launcher = page.getByLabel("Launcher Text", { exact: true });
  await launcher.fill("Parlez-nous");
  await page.getByRole("link", { name: "Push to production" }).click();
  await expect(confirm).toContainText("Your unsaved changes are not part of this push");
  await expect(page.getByTestId("save-bar").getByRole("status")).toHaveText("Unsaved changes");
  await expect(launcher).toHaveValue("Parlez-nous");
  await confirm.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByTestId("toast")).toContainText("Pushed to production");
  await expect(launcher).toHaveValue("Parlez-nous");
  await expect(page.getByTestId("save-bar").getByRole("status")).toHaveText("Unsaved changes");
});

test("the preview opens beside the form without taking the keyboard, and typing never opens it again", async ({
  signedInPage: page,
}) => {
  // A window tall enough for the whole preview: Playwright cannot scroll to what the widget shows
  // (it is fixed inside its frame).
  await page.setViewportSize({ width: 1280, height: 900 });
  // The preview loads only once the person is in a field, so it opens while they type.
  let release = () => {};
  const inField = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/appearance/preview*", async (route) => {
    await inField;
    await route.continue();
  });
  await page.goto(ADMISSIONS, { waitUntil: "domcontentloaded" });
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const name = page.getByLabel("Assistant Name", { exact: true });
  await name.fill("");
  release();
  const preview = page.frameLocator('iframe[title="Chat preview"]');
  const panel = preview.getByRole("dialog");
  await expect(panel).toBeVisible();
  await page.keyboard.type("Ada");
  await expect(name).toHaveValue("Ada");
  await expect(name).toBeFocused();
  await page.unrouteAll();

  // Set to open by itself, the widget gets new values after every pause in typing: none reopens it.
  await page.getByText("Advanced Settings").click();
  await page.getByLabel("Open By Itself After").fill("1");
  await preview.getByRole("button", { name: "Close chat" }).click();
  await expect(panel).toBeHidden();
  await name.press("End");
  for (const letter of "bc") {
    await page.keyboard.type(letter);
    // Past the preview's update (300 ms after typing) and the widget's delay (1 s).
    await page.waitForTimeout(1_600);
  }
  await expect(name).toHaveValue("Adabc");
  await expect(name).toBeFocused();
  await expect(panel).toBeHidden();

  // A visitor's own click on the launcher still takes them into the message box. (At the page's
  // end the preview, which stays in view as the page scrolls, is in view whole.)
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await preview.locator(".launcher").click();
  await expect(panel).toBeVisible();
  await expect(preview.getByRole("textbox", { name: "Your message" })).toBeFocused();
});

test("a name, greeting and launcher text written right to left are laid out so in the widget, and each source by its own script", async ({
  signedInPage: page,
}) => {
  // Tall enough for the whole preview: Playwright cannot scroll to what the widget shows.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(ADMISSIONS);
  const preview = page.frameLocator('iframe[title="Chat preview"]');
  await expect(preview.getByRole("dialog")).toBeVisible();
  // Typed, not saved: the preview shows it, and nothing changes for the other journeys.
  await page.getByLabel("Assistant Name", { exact: true }).fill("مساعد القبول");
  await page.getByLabel("Greeting Message", { exact: true }).fill("مرحبًا! كيف يمكنني مساعدتك؟");
  await page.getByLabel("Launcher Text", { exact: true }).fill("تحدث معنا");
  const chat = preview.getByRole("dialog", { name: "مساعد القبول" });
  await expect(chat).toBeVisible();
  const rightToLeft = (locator: Locator) => locator.evaluate((node) => node.matches(":dir(rtl)"));
  expect(await rightToLeft(chat.getByRole("heading", { name: "مساعد القبول" }))).toBe(true);
  expect(await rightToLeft(preview.locator(".launcher").getByText("تحدث معنا"))).toBe(true);
  expect(await rightToLeft(chat.locator(".row.bot .bubble").first())).toBe(true);

  await chat.getByLabel("Your message").fill("How many students does the nursing program admit?");
  await chat.getByLabel("Your message").press("Enter");
  const source = chat.getByRole("list", { name: "Sources" }).last().getByRole("listitem").first();
  await expect(source).toHaveAttribute("dir", "auto", { timeout: 15_000 });
  expect(await rightToLeft(source)).toBe(false);
});

test("the preview shows what saving would: an avatar ticked Remove is gone, a short colour is the picker's too", async ({
  signedInPage: page,
}) => {
  await page.goto(SHOP_DEFAULT);
  const avatarFile = { name: "avatar.png", mimeType: "image/png", buffer: Buffer.from(PNG_BYTES) };
  await page.getByLabel("Assistant Avatar", { exact: true }).setInputFiles(avatarFile);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Success!");
  await page.reload();
  const preview = page.frameLocator('iframe[title="Chat preview"]');
  const avatars = preview.locator(".row.bot img.avatar");
  await expect(avatars).toHaveCount(1);
  const remove = page.getByRole("checkbox", { name: "Remove" });
  await remove.check();
  await expect(avatars).toHaveCount(0);
  await remove.uncheck();
  await expect(avatars).toHaveCount(1);

  await page.getByLabel("Primary Colour", { exact: true }).fill("#f00");
  await expect(preview.locator(".launcher")).toHaveCSS("background-color", "rgb(255, 0, 0)");
  await expect(page.getByLabel("Primary Colour picker")).toHaveValue("#ff0000");
});

test("the preview shows an image chosen and not saved yet, and stops showing it once the choice is cleared", async ({
  signedInPage: page,
}) => {
  await page.goto(STUDENT_SUCCESS);
  const preview = page.frameLocator('iframe[title="Chat preview"]');
  await expect(preview.getByRole("dialog")).toBeVisible();
  const logo = preview.locator(".header img");
  await expect(logo).toBeHidden();
  const logoFile = page.getByLabel("Header Logo", { exact: true });
  await logoFile.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(PNG_BYTES) });
  await expect(logo).toBeVisible();
  await expect(logo).toHaveAttribute("src", /^blob:/);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // Not saved: the choice cleared, the preview is as stage is.
  await logoFile.setInputFiles([]);
  await expect(logo).toBeHidden();
});

test("the preview shows the largest panel at its real size, whole, a scroll away at most", async ({
  signedInPage: page,
}) => {
  await page.goto(ADMISSIONS);
  await page.getByText("Advanced Settings").click();
  await page.getByLabel("Panel Width (px)").fill("480");
  await page.getByLabel("Panel Height (px)").fill("720");
  await page.getByLabel("Distance From The Edge (px)").fill("64");
  const panel = page.frameLocator('iframe[title="Chat preview"]').getByRole("dialog");
  await expect(panel).toBeVisible();
  // Inside the frame: the panel's own size, and nothing of it outside the frame's window.
  const placed = () =>
    panel.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const view = element.ownerDocument.defaultView!;
      return {
        width: Math.round(box.width),
        height: Math.round(box.height),
        whole: box.top >= 0 && box.left >= 0 && box.right <= view.innerWidth && box.bottom <= view.innerHeight,
      };
    });
  await expect.poll(placed).toEqual({ width: 480, height: 720, whole: true });
  // Wider than the preview's column: the frame scrolls in its box, and a note says so.
  await expect(
    page.getByText("The widget is shown at its real size: scroll the preview to see all of it."),
  ).toBeVisible();
});

test("at 1280 px wide, each image's file input stays inside its own column and its card", async ({
  signedInPage: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(ADMISSIONS);
  const preview = await page.getByRole("region", { name: "Live preview" }).boundingBox();
  for (const label of ["Assistant Avatar", "Launcher Icon", "Header Logo"]) {
    const fits = await page.getByLabel(label, { exact: true }).evaluate((input, previewLeft) => {
      const box = input.getBoundingClientRect();
      const column = input.closest("fieldset > div")!.getBoundingClientRect();
      const card = input.closest("details")!.getBoundingClientRect();
      return {
        inColumn: box.left >= column.left && box.right <= column.right,
        inCard: box.right <= card.right,
        clearOfPreview: box.right < previewLeft,
      };
    }, preview!.x);
    expect({ label, ...fits }).toEqual({ label, inColumn: true, inCard: true, clearOfPreview: true });
  }
});

test("a value out of range comes back beside its field with everything else kept", async ({ signedInPage: page }) => {
  await page.goto(ADMISSIONS);
  await page.getByText("Advanced Settings").click();
  await page.getByLabel("Panel Width (px)").fill("900");
  await page.getByLabel("Launcher Text", { exact: true }).fill("Ask admissions");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Panel Width must be a whole number from 300 to 480" }),
  ).toBeVisible();
  await expect(page.getByLabel("Launcher Text", { exact: true })).toHaveValue("Ask admissions");
  await expectRefusedWith(page.getByLabel("Panel Width (px)"), "Panel Width must be a whole number from 300 to 480");
  await expect(page.getByLabel("Launcher Text", { exact: true })).not.toHaveAttribute("aria-invalid");

  await page.getByLabel("Primary Colour", { exact: true }).fill("#12");
  await page.getByRole("button", { name: "Save" }).click();
  await expectRefusedWith(
    page.getByLabel("Primary Colour", { exact: true }),
    "Primary Colour must be a colour like #1f4b99",
  );
});

/**
 * Two operators on one agent's Appearance: saves of different settings keep both; a setting both
 * changed is refused beside it on the later save, which keeps what was typed and goes through when
 * sent again.
 */
async function twoOperatorsAtOnce(page: Page) {
  const colleague = await page.context().newPage();
  await page.goto(ADMISSIONS);
  await colleague.goto(ADMISSIONS);
  const placeholder = `Ask the admissions team (${Date.now()})`;
  const launcher = `Questions? (${Date.now()})`;
  await page.getByLabel("Input Placeholder", { exact: true }).fill(placeholder);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Success!");
  // The colleague's page still shows the placeholder as it was; their save sends only the launcher text.
  await colleague.getByLabel("Launcher Text", { exact: true }).fill(launcher);
  await colleague.getByRole("button", { name: "Save" }).click();
  await expect(colleague.getByTestId("toast")).toContainText("Success!");
  await expect(colleague.getByLabel("Input Placeholder", { exact: true })).toHaveValue(placeholder);
  await expect(colleague.getByLabel("Launcher Text", { exact: true })).toHaveValue(launcher);

  // Both change the placeholder: the later save is refused beside it, saying what is stored, and keeps what was typed.
  await page.reload();
  await colleague.reload();
  await page.getByLabel("Input Placeholder", { exact: true }).fill(`${placeholder} (mine)`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Success!");
  const theirs = colleague.getByLabel("Input Placeholder", { exact: true });
  await theirs.fill(`${placeholder} (theirs)`);
  await colleague.getByRole("button", { name: "Save" }).click();
  await expectRefusedWith(
    theirs,
    `Changed to “${placeholder} (mine)” since you opened this page; save again to keep yours`,
  );
  await expect(theirs).toHaveValue(`${placeholder} (theirs)`);
  await colleague.getByRole("button", { name: "Save" }).click();
  await expect(colleague.getByTestId("toast")).toContainText("Success!");
  await expect(theirs).toHaveValue(`${placeholder} (theirs)`);
  await colleague.close();
}

test("two operators saving different settings of one page at once both keep theirs", async ({ signedInPage: page }) => {
  await twoOperatorsAtOnce(page);
});

/** A field the save refused: marked invalid, and described by the message shown under it. */
async function expectRefusedWith(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  // An image field is described by its hint first, then by the message.
  await expect(field).toHaveAccessibleDescription(new RegExp(`${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
}

/**
 * Opens an agent's Appearance (the shop's unless said) with its scripts (not its styles, which a
 * click waits for) held until `edit` has run, as on a slow connection; `whileHydrating` runs once
 * the scripts are let through, before the page has hydrated.
 */
async function editBeforeScripts(
  page: Page,
  edit: () => Promise<void>,
  { path = SHOP, whileHydrating = async () => {} } = {},
) {
  const hydrate = await openWithScriptsHeld(page, path);
  await edit();
  await hydrate(whileHydrating);
}

test("what is typed or chosen before the page's JavaScript runs counts as an unsaved change", async ({
  signedInPage: page,
}) => {
  const position = (label: string) => page.getByRole("radiogroup", { name: "Position" }).getByLabel(label);
  // The option after the one saved, then (saved) the one before it: a radio's edit survives either order.
  for (const [name, corner] of [
    ["Harbor Helper", "Bottom left"],
    ["Harbor Guide", "Bottom right"],
  ]) {
    await editBeforeScripts(page, async () => {
      await page.getByLabel("Assistant Name", { exact: true }).fill(name);
      await position(corner).check();
    });
    await expect(page.getByTestId("save-bar").getByRole("status")).toHaveText("Unsaved changes");
    await expect(position(corner)).toBeChecked();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText("Success!");
    await page.reload();
    await expect(page.getByLabel("Assistant Name", { exact: true })).toHaveValue(name);
    await expect(position(corner)).toBeChecked();
    await expect(page.getByTestId("save-bar").getByRole("status")).toHaveText("No unsaved changes");
  }
});

/**
 * Slows React's hydration as a busy machine does: React renders in slices of a few milliseconds and
 * asks for the next through a MessageChannel, and each of those messages now arrives 100 ms late.
 * The console's Appearance page takes about twenty slices, so typing can start between them.
 */
async function hydrateSlowly(page: Page) {
  await page.addInitScript(() => {
    const Native = window.MessageChannel;
    window.MessageChannel = class extends Native {
      constructor() {
        super();
        const send = this.port2.postMessage.bind(this.port2);
        this.port2.postMessage = (message: unknown) => window.setTimeout(() => send(message), 100);
      }
    };
  });
}

/** Waits until hydration has begun (Remix's router exists) and checks it has not yet ended. */
async function whenHydrationHasBegun(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
  expect(await page.locator("html").getAttribute("data-hydrated")).toBeNull();
}

/**
 * Changes a field as a browser's autofill does: its value (or checked state) is set, then its input
 * and change events fire, with no key pressed or pointer used.
 */
async function autofill(field: Locator, change: { value: string } | { checked: boolean }) {
  await field.evaluate((element: HTMLInputElement, to) => {
    Object.assign(element, to);
    element.dispatchEvent(new Event("input", { bubbles: true }));
    element.dispatchEvent(new Event("change", { bubbles: true }));
  }, change);
}

test("a value filled in while the page hydrates is kept and counts as an unsaved change", async ({
  signedInPage: page,
}) => {
  await hydrateSlowly(page);
  await page.goto(ADMISSIONS, { waitUntil: "commit" });
  await whenHydrationHasBegun(page);
  // With no key pressed, React finishes hydrating at once and takes the new value for the one it
  // rendered, so the colour's own state kept the saved value, and the form turning dirty put that
  // back in the field.
  await autofill(page.getByLabel("Primary Colour", { exact: true }), { value: "#2266aa" });
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByLabel("Primary Colour", { exact: true })).toHaveValue("#2266aa");
  await expect(page.getByTestId("save-bar").getByRole("status")).toHaveText("Unsaved changes");
  const preview = page.frameLocator('iframe[title="Chat preview"]');
  await expect(preview.locator(".launcher")).toHaveCSS("background-color", "rgb(34, 102, 170)");
});

test("a radio chosen before the scripts ran, then chosen back while the page hydrates, stays chosen back", async ({
  signedInPage: page,
}) => {
  await hydrateSlowly(page);
  const radios = page.getByRole("radiogroup", { name: "Position" }).getByRole("radio");
  let saved = 0;
  await editBeforeScripts(
    page,
    async () => {
      saved = await radios.evaluateAll((all: HTMLInputElement[]) => all.findIndex((radio) => radio.checked));
      await radios.nth(saved === 0 ? 1 : 0).check();
    },
    {
      path: ADMISSIONS,
      whileHydrating: async () => {
        await whenHydrationHasBegun(page);
        // The other radio's uncheck fires no event of its own.
        await autofill(radios.nth(saved), { checked: true });
      },
    },
  );
  await expect(radios.nth(saved)).toBeChecked();
  await expect(radios.nth(saved === 0 ? 1 : 0)).not.toBeChecked();
});

test("a greeting of two lines is typed as two, shows so in the preview, and keeps them once saved", async ({
  signedInPage: page,
}) => {
  await page.goto(STUDENT_SUCCESS);
  const greeting = page.getByLabel("Greeting Message", { exact: true });
  const before = await greeting.inputValue();
  const twoLines = "Welcome to Student Success!\nAsk about tutoring or advising.";
  await greeting.fill(twoLines);
  const preview = page.frameLocator('iframe[title="Chat preview"]');
  await expect(preview.locator(".bubble").first()).toHaveText(twoLines);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Success!");
  await page.reload();
  await expect(greeting).toHaveValue(twoLines);
  // Another setting saved keeps the greeting's lines as they are.
  await page.getByLabel("Assistant Name", { exact: true }).fill("Sage Lines");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Success!");
  await page.reload();
  await expect(greeting).toHaveValue(twoLines);
  await greeting.fill(before);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Success!");
});

test("a client user sees the settings and the preview but cannot save or push", async ({ page }) => {
  await signIn(page, "client.user@example.com");
  await page.goto(ADMISSIONS);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Appearance");
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Push to production" })).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the appearance form saves", async ({ signedInPage: page }) => {
    await page.goto(ADMISSIONS);
    const greeting = page.getByLabel("Greeting Message", { exact: true });
    // Another value than the saved one, so that the save has something to send (a retry included).
    const typed = (await greeting.inputValue()).endsWith("!")
      ? "Welcome to Northfield admissions."
      : "Welcome to Northfield admissions!";
    await greeting.fill(typed);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText("Success!");
    await expect(greeting).toHaveValue(typed);
  });

  test("two operators saving different settings of one page at once both keep theirs", async ({
    signedInPage: page,
  }) => {
    await twoOperatorsAtOnce(page);
  });

  test("a colour chosen with its picker is saved; Push to production says to save first", async ({
    signedInPage: page,
  }) => {
    await page.goto(ADMISSIONS);
    await expect(
      page.getByText("Push to production opens its question on a new page: save your changes first"),
    ).toBeVisible();
    // A dark colour either way (the visitor's text is white, and the widget's contrast is checked by
    // other journeys on this agent), other than the one saved now; put back afterwards.
    const colour = page.getByLabel("Visitor Message Colour", { exact: true });
    const saved = await colour.inputValue();
    const picked = saved.toLowerCase() === "#1a4d2e" ? "#4a1d6e" : "#1a4d2e";
    await page.getByLabel("Visitor Message Colour picker").fill(picked);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText("Success!");
    await expect(colour).toHaveValue(picked);
    await colour.fill(saved);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText("Success!");
    await expect(colour).toHaveValue(saved);
  });

  test("an image the upload refuses is marked invalid and described by the refusal", async ({ signedInPage: page }) => {
    await page.goto(ADMISSIONS);
    const avatar = page.getByLabel("Assistant Avatar", { exact: true });
    await avatar.setInputFiles({ name: "avatar.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
    await page.getByRole("button", { name: "Save" }).click();
    await expectRefusedWith(avatar, "avatar.png does not contain a PNG, JPEG, GIF or WebP image");
  });

  test("an image past 2 MB is said beside it, with what was typed kept and nothing saved", async ({
    signedInPage: page,
  }) => {
    await page.goto(ADMISSIONS);
    const greeting = page.getByLabel("Greeting Message", { exact: true });
    const saved = await greeting.inputValue();
    const typed = `${saved} (typed beside a photo)`;
    await greeting.fill(typed);
    const avatar = page.getByLabel("Assistant Avatar", { exact: true });
    // The limit is said before a file is chosen, not only when one is refused.
    await expect(avatar).toHaveAccessibleDescription("A PNG, JPEG, GIF, WebP or SVG image, at most 2 MB.");
    await avatar.setInputFiles(pngOnDisk(pngOfAtLeast(3 * 1024 * 1024), "team-photo.png"));
    await page.getByRole("button", { name: "Save" }).click();
    await expectRefusedWith(avatar, "The chosen image is larger than 2 MB: choose a smaller image");
    await expect(greeting).toHaveValue(typed);
    await page.goto(ADMISSIONS);
    await expect(greeting).toHaveValue(saved);
  });
});
