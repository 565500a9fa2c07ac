import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  declaringLength,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
  toastOf,
} from "../../tests/support/console-context";
import { sql } from "drizzle-orm";
import { pngOfAtLeast } from "../../tests/support/files";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import type { AppearanceActionData } from "~/server/appearance.server";
import { appearanceBaseline } from "~/lib/appearance";
import { NOTHING_TO_SAVE } from "~/lib/controls";
import { action, loader } from "./$appName.agent.$agentName.appearance";

let host: Awaited<ReturnType<typeof startTestHost>>;
let cookie: string;

beforeAll(async () => {
  host = await startTestHost();
  cookie = await signInToConsole(host, "client.admin@example.com");
});
afterAll(async () => {
  await host?.close();
});

const PAGE = "/northfield/agent/admissions/appearance";

/** The Appearance form posted as the browser posts it (multipart, for its image inputs). */
function post(fields: Record<string, string | File>, declaredBytes?: number) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const posted = new Request(`http://localhost${PAGE}`, { method: "POST", body: form, headers: { cookie } });
  const request = declaredBytes ? declaringLength(posted, declaredBytes) : posted;
  return settle(() =>
    action({ request, context: testContext(host), params: { appName: "northfield", agentName: "admissions" } }),
  );
}

const params = { appName: "northfield", agentName: "admissions" };

/** The page as an operator opens it: its values, and the form's fields as the browser would post them unchanged. */
async function openPage() {
  const data = await loaderJson(loader, {
    request: getRequest(PAGE, cookie),
    context: testContext(host),
    params,
  });
  const loaded = appearanceBaseline(data.values!);
  return { shown: { ...loaded }, loaded: JSON.stringify(loaded) };
}

/** Save from an opened page with some settings edited: every field posted, as the browser posts the form. */
const saveFrom = (page: Awaited<ReturnType<typeof openPage>>, edits: Record<string, string>) =>
  post({ intent: "save", ...page.shown, loaded: page.loaded, ...edits });

describe("Appearance's save from a page loaded before a colleague's save", () => {
  it("keeps the colleague's setting: only what this page changed is sent", async () => {
    const mine = await openPage();
    const theirs = await openPage();
    const colleague = await saveFrom(theirs, { bot_name: "Colleague's name" });
    expect(colleague.status).toBe(302);
    const answer = await saveFrom(mine, { greeting_message: "Hello from me" });
    expect(answer.status).toBe(302);
    const now = (await openPage()).shown;
    expect(now.bot_name).toBe("Colleague's name");
    expect(now.greeting_message).toBe("Hello from me");
  });

  it("refuses a setting changed both here and there, saying the stored value beside it and keeping what was typed", async () => {
    const mine = await openPage();
    const theirs = await openPage();
    await saveFrom(theirs, { bot_name: "Theirs" });
    const answer = await saveFrom(mine, { bot_name: "Mine", greeting_message: "Typed with it" });
    expect(answer.status).toBe(409);
    const data = (await answer.json()) as AppearanceActionData;
    expect(data.fieldErrors).toEqual({
      bot_name: "Changed to “Theirs” since you opened this page; save again to keep yours",
    });
    expect(data.values).toMatchObject({ bot_name: "Mine", greeting_message: "Typed with it" });
    expect((await openPage()).shown).toMatchObject({
      bot_name: "Theirs",
      greeting_message: theirs.shown.greeting_message,
    });
    // The form's baseline is now what is stored: saving again keeps what was typed, reloaded or not.
    expect(data.loaded).toMatchObject({ bot_name: "Theirs" });
    const again = await post({ intent: "save", ...mine.shown, bot_name: "Mine", loaded: JSON.stringify(data.loaded) });
    expect(again.status).toBe(302);
    expect((await openPage()).shown.bot_name).toBe("Mine");
  });

  it("says there is nothing to save when nothing was changed", async () => {
    const page = await openPage();
    const answer = await saveFrom(page, {});
    expect(answer.status).toBe(302);
    expect(await toastOf(answer)).toMatchObject({ type: "info", description: NOTHING_TO_SAVE });
  });
});

describe("Appearance's save", () => {
  it("refuses a chosen image without bytes beside its field, rather than saving around it", async () => {
    const answer = await post({
      intent: "save",
      bot_name: "Northie",
      avatar_url__file: new File([], "zero.png", { type: "image/png" }),
    });
    expect(answer.status).toBe(400);
    const data = (await answer.json()) as AppearanceActionData;
    expect(data.fieldErrors.avatar_url).toMatch(/zero\.png is empty/);
    expect(data.values?.bot_name).toBe("Northie");
  });

  it("says beside an image past 2 MB that it is too large, keeping everything typed, and saves nothing", async () => {
    const before = (await openPage()).shown;
    const photo = new File([pngOfAtLeast(3 * 1024 * 1024)], "team-photo.png", { type: "image/png" });
    const answer = await post({
      intent: "save",
      bot_name: "Photo Bot",
      greeting_message: "Typed beside the photo",
      avatar_url__file: photo,
    });
    expect(answer.status).toBe(413);
    const data = (await answer.json()) as AppearanceActionData;
    expect(data.formError).toBeNull();
    expect(data.fieldErrors).toEqual({ avatar_url: "The chosen image is larger than 2 MB: choose a smaller image" });
    expect(data.values).toMatchObject({ bot_name: "Photo Bot", greeting_message: "Typed beside the photo" });
    expect((await openPage()).shown).toEqual(before);
  });

  it("stays on the page saying why when the chosen images are past what a form may carry", async () => {
    const big = new File([pngOfAtLeast(1024)], "huge.png", { type: "image/png" });
    const answer = await post({ intent: "save", bot_name: "Northie", avatar_url__file: big }, 65 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({
      formError: "Nothing was saved: the chosen images are larger than the 2 MB each they may be. Choose smaller ones.",
      fieldErrors: {},
    });
  });

  it("is not found under an agent the client does not have, and Default's appearance stays as it was", async () => {
    const form = new FormData();
    form.append("intent", "save");
    form.append("bot_name", "GhostBot");
    const request = new Request("http://localhost/northfield/agent/ghost/appearance", {
      method: "POST",
      body: form,
      headers: { cookie },
    });
    const answer = await settle(() =>
      action({ request, context: testContext(host), params: { appName: "northfield", agentName: "ghost" } }),
    );
    expect(answer.status).toBe(404);
    const client = await signInAs(host, "client.admin@example.com");
    const apps = (await apiCaller(host)("GET", "/v1/apps?status=active", { token: client.user_token })).body.apps as {
      id: number;
      url_code: string;
    }[];
    const appId = apps.find((a) => a.url_code === "northfield")!.id;
    const defaults = await apiCaller(host)("GET", `/v1/appearances?appId=${appId}&triggerPoint=`, {
      token: client.user_token,
    });
    expect(defaults.status).toBe(200);
    expect(JSON.stringify(defaults.body)).not.toContain("GhostBot");
  });
});

describe("Appearance's push of stage values the API refuses", () => {
  it("says why beside the field, on the page, instead of leaving it for an error page", async () => {
    // A blank Assistant Name saved before blanks were refused, still in stage.
    await host.deps.db.execute(sql`
      update appearances set values = values || '{"bot_name": ""}'::jsonb
      where app_id = (select id from client_apps where url_code = 'northfield')
        and trigger_point = 'admissions' and environment = 'stage'`);
    const response = await post({ intent: "push" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as AppearanceActionData;
    expect(body.fieldErrors).toEqual({ bot_name: "Assistant Name is required" });
  });
});
