import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANGE_KIND_LABELS, type ChangeLine } from "@contract";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { DEFAULT_TABLE_PAGE_SIZE } from "~/lib/table-view";
import { action, loader } from "./$appName.history";

/** The History screen's loader and action over a real API: the list, its filters and pages, each change's diff, and restore. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let admin: string;
let viewer: string;
let apiToken: string;
let appId: number;
const PAGE = "/northfield/history";

beforeAll(async () => {
  host = await startTestHost();
  admin = await signInToConsole(host, "client.admin@example.com");
  viewer = await signInToConsole(host, "client.user@example.com");
  apiToken = (await signInAs(host, "client.admin@example.com")).user_token;
  const apps = await apiCaller(host)("GET", "/v1/apps", { token: apiToken });
  appId = apps.body.apps.find((a: { url_code: string }) => a.url_code === "northfield").id;
});
afterAll(() => host?.close());

const args = (request: Request) => ({ request, context: testContext(host), params: { appName: "northfield" } });
const saveNoGo = (topic: string, reply: string) =>
  apiCaller(host)("PUT", "/v1/controls", {
    token: apiToken,
    body: {
      app_id: appId,
      controls: [
        {
          internal_name: "no_go_topics",
          prompt_input_raw: topic,
          metadata: { disclaimer: reply },
          trigger_point: "admissions",
        },
      ],
    },
  });
const savePersonality = (text: string) =>
  apiCaller(host)("PUT", "/v1/controls", {
    token: apiToken,
    body: {
      app_id: appId,
      controls: [{ internal_name: "ai_personality_guidelines", prompt_input_raw: text, trigger_point: "admissions" }],
    },
  });

interface Shown {
  id: number;
  kind: string;
  user_email: string;
  summary: string;
  changes: ChangeLine[];
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (search = "", cookie = admin): Promise<any> =>
  loaderJson(loader, args(getRequest(`${PAGE}${search}`, cookie)));
const restore = (fields: Record<string, string>, cookie = admin, search = "") =>
  settle(() => action(args(formRequest(`${PAGE}${search}`, fields, cookie))));

describe("the History screen", () => {
  it("lists each change with who, what and what it did, old value and new", async () => {
    await savePersonality("Be brief.");
    await savePersonality("Be brief and kind.");
    const data = await load();
    expect(data.canRestore).toBe(true);
    const [latest] = data.changes as Shown[];
    expect(latest).toMatchObject({
      kind: "controls",
      user_email: "client.admin@example.com",
      summary: "Chatbot Personality of Admissions Assistant changed",
    });
    expect(latest.changes).toEqual([
      { text: "AI Personality of Admissions Assistant: Chatbot Personality 'Be brief.' → 'Be brief and kind.'" },
    ]);
    // The states stay on the server: the page gets what differs.
    expect(latest).not.toHaveProperty("before");
    expect(latest).not.toHaveProperty("after");
    expect(data.people).toContain("client.user@example.com");
  });

  it("shows a No-Go topic saved as that topic added, whatever else the list holds", async () => {
    await saveNoGo("tuition refunds", "Please ask the bursar.");
    await saveNoGo("parking permits", "Please ask campus security.");
    const [latest] = (await load("?kind=controls")).changes as Shown[];
    expect(latest.changes).toEqual([
      {
        text: "No-Go Topics of Admissions Assistant: added 'parking permits' (Canned Response: 'Please ask campus security.')",
      },
    ]);
  });

  it("filters by kind through the address", async () => {
    await apiCaller(host)("POST", `/v1/apps/${appId}/agents/update_agents`, {
      token: apiToken,
      body: { app_id: appId, name: "Library Helper", site_code: "library" },
    });
    const agents = await load("?kind=agent");
    expect(agents.changes.map((c: Shown) => c.summary)).toEqual(["Agent Library Helper added"]);
    expect(agents.filters).toEqual({ kind: "agent", user: "", pageSize: DEFAULT_TABLE_PAGE_SIZE });
  });

  it("offers files, the client profile and test questions among its kinds, and filters by them", async () => {
    const { kinds } = await load();
    for (const kind of ["file", "client", "test_questions"] as const) expect(kinds).toContain(kind);
    expect([CHANGE_KIND_LABELS.file, CHANGE_KIND_LABELS.client, CHANGE_KIND_LABELS.test_questions]).toEqual([
      "Files",
      "Client Profile",
      "Test Questions",
    ]);
    const added = await apiCaller(host)("POST", `/v1/apps/${appId}/test_questions`, {
      token: apiToken,
      body: { trigger_point: "library", question: "Where is the library?", expect_outcome: "answered" },
    });
    expect(added.status).toBe(201);
    const shown = await load("?kind=test_questions");
    expect(shown.changes.map((c: Shown) => [c.summary, c.changes.map((line) => line.text)])).toEqual([
      [
        "Test Questions of Library Helper: 1 added",
        ["Test Questions of Library Helper: added 'Where is the library?' (Expected outcome: 'Answered')"],
      ],
    ]);
  });

  it("filters by person through the address", async () => {
    expect((await load("?user=client.user@example.com")).changes).toEqual([]);
  });

  it("pages by 10 rows through the address, or by another of every table's sizes (spec section 9)", async () => {
    for (let i = 0; i <= DEFAULT_TABLE_PAGE_SIZE; i++) await savePersonality(`Version ${i}.`);
    const search = "?kind=controls&user=client.admin@example.com";
    const first = await load(search);
    expect(first).toMatchObject({ page: 1, filters: { pageSize: DEFAULT_TABLE_PAGE_SIZE } });
    expect(first.totalPages).toBeGreaterThanOrEqual(2);
    expect(first.changes).toHaveLength(DEFAULT_TABLE_PAGE_SIZE);
    const second = await load(`${search}&page=2`);
    expect(second.changes.map((c: Shown) => c.id)).not.toContain(first.changes[0].id);
    expect((await load(`${search}&page_size=20`)).changes.length).toBeGreaterThan(DEFAULT_TABLE_PAGE_SIZE);
    expect((await load(`${search}&page_size=7`)).filters.pageSize).toBe(DEFAULT_TABLE_PAGE_SIZE);
  });

  it("refuses a kind it does not offer beside the Kind filter (400), listing nothing", async () => {
    const answer = await settle(() => loader(args(getRequest(`${PAGE}?kind=secrets`, admin))));
    expect(answer.status).toBe(400);
    const data = await answer.json();
    expect(data).toMatchObject({ kindError: "Choose a kind from the list", changes: [], error: null });
  });

  it("reads the page and person as the other lists do: no error for a page that is no number or past the end", async () => {
    const all = await load();
    expect((await load("?page=abc")).page).toBe(1);
    const past = await load("?page=100001");
    expect(past).toMatchObject({ error: null, page: all.totalPages });
    expect(past.changes.length).toBeGreaterThan(0);
    // Control characters are spaces, as a search box would have them: a person matching nothing.
    expect(await load("?user=a%01b")).toMatchObject({ error: null, changes: [], filters: { user: "a b" } });
  });

  it("restores a recorded state and comes back to the same page with a toast", async () => {
    await savePersonality("Restore me.");
    const recorded = (await load("?kind=controls")).changes[0] as Shown;
    await savePersonality("Replaced.");
    const response = await restore({ intent: "restore", id: String(recorded.id) }, admin, "?kind=controls");
    expect(response).toHaveRedirect(`${PAGE}?kind=controls`);
    await expect(response).toSendToast({
      type: "success",
      description: expect.stringMatching(/^Restored the controls of Admissions Assistant to the state of /),
    });
    const latest = (await load("?kind=controls")).changes[0] as Shown;
    expect(latest.changes).toEqual([
      { text: "AI Personality of Admissions Assistant: Chatbot Personality 'Replaced.' → 'Restore me.'" },
    ]);
  });

  it("reverts a change to the state before it, back on the same page with a toast", async () => {
    await saveNoGo("library fines", "Please ask the library desk.");
    const saved = (await load("?kind=controls")).changes[0] as Shown;
    const response = await restore({ intent: "revert", id: String(saved.id) }, admin, "?kind=controls&page=1");
    expect(response).toHaveRedirect(`${PAGE}?kind=controls&page=1`);
    await expect(response).toSendToast({
      type: "success",
      description: expect.stringMatching(
        /^Reverted the controls of Admissions Assistant to the state before the change of /,
      ),
    });
    const latest = (await load("?kind=controls")).changes[0] as Shown;
    expect(latest.changes).toEqual([
      {
        text: "No-Go Topics of Admissions Assistant: removed 'library fines' (Canned Response: 'Please ask the library desk.')",
      },
    ]);
  });

  it("says there is nothing to revert when the state before a change is the current one", async () => {
    const [, reverted] = (await load("?kind=controls")).changes as Shown[];
    expect(reverted.changes[0].text).toContain("added 'library fines'");
    const again = await restore({ intent: "revert", id: String(reverted.id) });
    await expect(again).toSendToast({
      type: "success",
      description: "Nothing to revert: this is the current state already",
    });
  });

  it("asks first when later changes to the same thing would be undone too, and comes back without the question", async () => {
    await saveNoGo("parking", "Ask campus security.");
    await saveNoGo("tuition", "Ask the bursar.");
    const [latest, earlier] = (await load("?kind=controls")).changes as (Shown & { later_changes: number })[];
    expect(latest.later_changes).toBe(0);
    expect(earlier.later_changes).toBeGreaterThanOrEqual(1);

    const asking = await load(`?kind=controls&confirm=revert-${earlier.id}`);
    expect(asking.confirming).toMatchObject({ intent: "revert", change: { id: earlier.id } });
    // A change without later ones, or not on the page, asks nothing.
    expect((await load(`?kind=controls&confirm=revert-${latest.id}`)).confirming).toBeNull();
    expect((await load("?kind=controls&confirm=revert-999999")).confirming).toBeNull();

    const response = await restore(
      { intent: "revert", id: String(earlier.id) },
      admin,
      `?kind=controls&confirm=revert-${earlier.id}`,
    );
    expect(response).toHaveRedirect(`${PAGE}?kind=controls`);
  });

  it("asks nothing before reverting controls when the later changes were to other controls, which the revert leaves", async () => {
    await saveNoGo("lockers", "Ask the student union.");
    await savePersonality("Be brief and clear.");
    type Counted = Shown & { later_changes: number; later_changes_on_revert: number };
    const [personality, noGo] = (await load("?kind=controls")).changes as Counted[];
    expect(noGo.changes[0].text).toContain("added 'lockers'");
    expect(noGo).toMatchObject({ later_changes: 1, later_changes_on_revert: 0 });
    // Restoring its state would write the personality back too, so that asks; reverting it does not.
    expect((await load(`?kind=controls&confirm=restore-${noGo.id}`)).confirming).toMatchObject({
      intent: "restore",
      change: { id: noGo.id },
    });
    expect((await load(`?kind=controls&confirm=revert-${noGo.id}`)).confirming).toBeNull();

    // What the revert button sends: no later change shown, and none undone.
    const response = await restore(
      { intent: "revert", id: String(noGo.id), later_changes: "0" },
      admin,
      "?kind=controls",
    );
    await expect(response).toSendToast({
      type: "success",
      description: expect.stringMatching(/^Reverted the controls of Admissions Assistant/),
    });
    const after = (await load("?kind=controls")).changes as Counted[];
    expect(after[0].changes).toEqual([
      { text: "No-Go Topics of Admissions Assistant: removed 'lockers' (Canned Response: 'Ask the student union.')" },
    ]);
    expect(after.find((change) => change.id === personality.id)?.later_changes_on_revert).toBe(0);
  });

  it("says so rather than revert when the change was changed again after the page showed it", async () => {
    await saveNoGo("lost keys", "Ask the front desk.");
    const shown = (await load("?kind=controls")).changes[0] as Shown & { later_changes: number };
    expect(shown.later_changes).toBe(0);
    // A colleague saves the same controls before the button is pressed.
    await saveNoGo("bike racks", "Ask campus security.");
    const response = await restore(
      { intent: "revert", id: String(shown.id), later_changes: "0" },
      admin,
      "?kind=controls",
    );
    expect(response).toHaveRedirect(`${PAGE}?kind=controls`);
    await expect(response).toSendToast({
      type: "error",
      description:
        "This was changed again since History was shown (1 later change now): look at it before you revert, as it would go too",
    });
    expect((await load("?kind=controls")).changes[0].changes[0].text).toContain("added 'bike racks'");
  });

  it("says so when a kind cannot be restored or reverted", async () => {
    const agent = (await load("?kind=agent")).changes[0] as Shown;
    const refused = await restore({ intent: "restore", id: String(agent.id) });
    await expect(refused).toSendToast({
      type: "error",
      description: "This kind of change cannot be restored or reverted",
    });
    const notReverted = await restore({ intent: "revert", id: String(agent.id) });
    await expect(notReverted).toSendToast({
      type: "error",
      description: "This kind of change cannot be restored or reverted",
    });
  });

  it("refuses forms it does not send: an unknown intent or id 400, a change it does not hold 404", async () => {
    const agent = (await load("?kind=agent")).changes[0] as Shown;
    for (const intent of ["delete", "constructor", ""])
      expect((await restore({ intent, id: String(agent.id) })).status, intent).toBe(400);
    expect((await restore({ intent: "restore", id: "1e99" })).status).toBe(400);
    expect((await restore({ intent: "restore", id: "999999" })).status).toBe(404);
  });

  it("shows read-only users the history without a way to restore, and answers their restore 403", async () => {
    const data = await load("", viewer);
    expect(data.canRestore).toBe(false);
    expect(data.changes.length).toBeGreaterThan(0);
    const response = await restore({ intent: "restore", id: String(data.changes[0].id) }, viewer);
    expect(response.status).toBe(403);
    expect((await restore({ intent: "revert", id: String(data.changes[0].id) }, viewer)).status).toBe(403);
  });

  it("is not found for a client the user cannot see", async () => {
    const response = await settle(() =>
      loader({
        ...args(getRequest("/shopharbor-outfitters/history", admin)),
        params: { appName: "shopharbor-outfitters" },
      }),
    );
    expect(response.status).toBe(404);
  });
});
