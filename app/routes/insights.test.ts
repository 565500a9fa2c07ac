import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { chatCall, feedbackCall } from "../../tests/support/chat-call";
import { addAgentWithoutSiteCode, apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { parseCsv } from "~/lib/csv";
import { action as dashboardAction, loader as dashboardLoader } from "./backoffice.$urlCode.dashboard";
import { action as profilesAction, loader as profilesLoader } from "./backoffice.$urlCode.user_profiles";
import { loader as exportLoader } from "./backoffice.$urlCode.user_profiles_.export";

let host: Awaited<ReturnType<typeof startTestHost>>;
let visitor: string;

/** One visitor through the public chat endpoint: their email, then a question nothing answers. */
beforeAll(async () => {
  host = await startTestHost();
  const call = apiCaller(host);
  const admin = (await signInAs(host, "admin@example.com")).user_token;
  const apps = (await call("GET", "/v1/apps?status=active", { token: admin })).body.apps as {
    id: number;
    url_code: string;
  }[];
  const appId = apps.find((a) => a.url_code === "northfield")!.id;
  await call("POST", `/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
    token: admin,
    body: {
      personalisation_config_details: [
        { name: "email", field_type: "text", group: "Personal Contact Information", model_type: "user_profile" },
      ],
    },
  });
  const key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin }))
    .body.key;
  const said = (message: string, conversation_id?: string) =>
    chatCall(host.api, { key, trigger_point: "admissions", message, conversation_id });
  visitor = (await said("my email is lee@example.com")).conversation;
  const velodrome = await said("Where is the velodrome?", visitor);
  const rated = await feedbackCall(host.api, { key, answer: velodrome, rating: "down", comment: "No directions" });
  if (rated.status !== 200) throw new Error(`rating failed: ${rated.status}`);
  ratedAnswer = velodrome.answer;
  // A page about it in the inventory, never indexed: the gap list should point at it.
  const saved = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token: admin,
    body: {
      websites: [
        {
          app_id: appId,
          url: "https://www.example.edu",
          site_map: "few_urls",
          enabled: true,
          tags: [],
          skip_patterns: [],
          allowed_patterns: [],
        },
      ],
    },
  });
  const websiteId = saved.body.websites[0].id as number;
  await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, {
    token: admin,
    body: { urls: ["https://www.example.edu/campus/velodrome-and-track"] },
  });
  northfieldId = appId;
  apiToken = admin;
  apiCall = call;
});
let northfieldId: number;
let ratedAnswer: number;
let apiToken: string;
let apiCall: ReturnType<typeof apiCaller>;
afterAll(() => host?.close());

const params = { urlCode: "northfield" };
const args = (request: Request) => ({ request, context: testContext(host), params });
describe("Business Insights", () => {
  it("loads the figures for the filters in the address", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const page = await loaderJson(
      dashboardLoader,
      args(getRequest("/backoffice/northfield/dashboard?triggerPoint=admissions&environment=stage", cookie)),
    );
    expect(page.filters).toEqual({ from: undefined, to: undefined, trigger_point: "admissions", environment: "stage" });
    // The message giving only an email is small talk; the velodrome question is the one question.
    expect(page.insights.totals).toMatchObject({
      conversations: 1,
      questions: 1,
      fallback: 1,
      small_talk: 1,
      leads: 1,
    });
    expect(page.insights.unanswered_questions.map((q: { question: string }) => q.question)).toContain(
      "where is the velodrome",
    );
    expect(page.insights.unhelpful).toEqual({
      total: 1,
      answers: [
        expect.objectContaining({
          conversation_id: visitor,
          message_id: ratedAnswer,
          question: "Where is the velodrome?",
          comment: "No directions",
          reviewed: false,
          trigger_point: "admissions",
        }),
      ],
    });
  });

  it("says by the selector when the address's trigger point is not one of the client's, and shows all of them", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const all = await loaderJson(dashboardLoader, args(getRequest("/backoffice/northfield/dashboard", cookie)));
    const page = await loaderJson(
      dashboardLoader,
      args(getRequest("/backoffice/northfield/dashboard?triggerPoint=admissions-old", cookie)),
    );
    expect(page.filters.trigger_point).toBeUndefined();
    expect(page.triggerPointError).toBe("“admissions-old” is not a trigger point of this client (showing all of them)");
    expect(page.insights.totals).toEqual(all.insights.totals);
    expect(page.insights.totals.conversations).toBeGreaterThan(0);
    const profiles = await loaderJson(
      profilesLoader,
      args(getRequest("/backoffice/northfield/user_profiles?triggerPoint=admissions-old", cookie)),
    );
    expect(profiles.triggerPointError).toBe(page.triggerPointError);
    expect(profiles.list?.total).toBeGreaterThan(0);
    // The address is anyone's to write: what is said back is one short line.
    const long = await loaderJson(
      dashboardLoader,
      args(
        getRequest(
          `/backoffice/northfield/dashboard?triggerPoint=${encodeURIComponent(`a\u202e${"b".repeat(5000)}`)}`,
          cookie,
        ),
      ),
    );
    expect(long.triggerPointError).toBe(
      `“a ${"b".repeat(98)}” is not a trigger point of this client (showing all of them)`,
    );
  });

  it("says a bad range by the dates, showing the default 30 days", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const bad = await loaderJson(
      dashboardLoader,
      args(getRequest("/backoffice/northfield/dashboard?from=2026-05-02&to=2026-05-01", cookie)),
    );
    expect(bad.fieldErrors.from).toEqual(["The start date must not be after the end date"]);
    expect(bad.insights.days).toHaveLength(30);
  });

  it("gives each agent the path of its screens, by its name when it has no site code", async () => {
    const created = await apiCall("POST", "/v1/apps", {
      token: apiToken,
      body: { client_name: "Codeless College", url_code: "codeless" },
    });
    expect(created.status).toBe(201);
    const appId = created.body.id as number;
    await addAgentWithoutSiteCode(host, appId, "Open Day Guide");
    const saved = await apiCall("POST", `/v1/apps/${appId}/agents/update_agents`, {
      token: apiToken,
      body: { app_id: appId, name: "Admissions", site_code: "admissions" },
    });
    expect(saved.status).toBe(200);
    const admin = await signInToConsole(host, "admin@example.com");
    const page = await loaderJson(dashboardLoader, {
      request: getRequest("/backoffice/codeless/dashboard", admin),
      context: testContext(host),
      params: { urlCode: "codeless" },
    });
    expect(page.client.agents).toEqual([
      { siteCode: "", name: "Open Day Guide", path: "/codeless/agent/Open%20Day%20Guide" },
      { siteCode: "admissions", name: "Admissions", path: "/codeless/agent/admissions" },
    ]);
  });

  it("sends the browser to a chart's CSV", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const answer = await settle(() =>
      dashboardAction(
        args(formRequest("/backoffice/northfield/dashboard?environment=all", { chart: "outcomes" }, cookie)),
      ),
    );
    expect(answer).toHaveRedirect();
    // A System Admin may download one too.
    const systemAdmin = await signInToConsole(host, "admin@example.com");
    const theirs = await settle(() =>
      dashboardAction(
        args(formRequest("/backoffice/northfield/dashboard?environment=all", { chart: "leads" }, systemAdmin)),
      ),
    );
    expect(theirs.headers.get("location")).toMatch(/northfield-leads-/);
    const file = await host.api.request(answer.headers.get("location")!);
    expect(parseCsv(await file.text())[0]).toEqual([
      "Day",
      "Answered",
      "Fallback",
      "Canned (no-go)",
      "Disclaimed (sensitive)",
      "Small talk",
    ]);
  });

  it("tells a read-only Client that chart CSVs are for those who configure the client, and stores nothing", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const answer = await settle(() =>
      dashboardAction(
        args(formRequest("/backoffice/northfield/dashboard?environment=all", { chart: "leads" }, cookie)),
      ),
    );
    expect(answer).toHaveRedirect("/backoffice/northfield/dashboard?environment=all");
    await expect(answer).toSendToast({
      type: "error",
      description: "Only Client Admins, Admins and System Admins can download chart CSVs",
    });
  });
});

describe("gaps on Business Insights", () => {
  const DASHBOARD = "/backoffice/northfield/dashboard?triggerPoint=admissions&environment=stage";

  it("lists an unanswered question beside the inventory's pages about it, with their status", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const page = await loaderJson(dashboardLoader, args(getRequest(DASHBOARD, cookie)));
    const gap = page.insights.unanswered_questions.find(
      (q: { question: string }) => q.question === "where is the velodrome",
    );
    expect(gap!.pages).toEqual([
      expect.objectContaining({
        url: "https://www.example.edu/campus/velodrome-and-track",
        status: "pending_review",
        state: "not_indexed",
        reason: null,
      }),
    ]);
  });

  it("says what to change when a question is longer than a test question may be", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const refused = await settle(() =>
      dashboardAction(
        args(formRequest(DASHBOARD, { intent: "add-test-question", question: "why ".repeat(300) }, cookie)),
      ),
    );
    await expect(refused).toSendToast({ type: "error", description: "Keep the question to at most 1,000 characters" });
  });

  it("sends each trigger point's questions to the Quality Check they were answered under, Default's to the client's", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const page = await loaderJson(dashboardLoader, args(getRequest(DASHBOARD, cookie)));
    expect(page.client.qualityChecks).toMatchObject({
      "": "/northfield/controls/quality-check",
      admissions: "/northfield/agent/admissions/controls/quality-check",
    });
  });

  it("keeps an unanswered question as a test question of the trigger point shown", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const added = await settle(() =>
      dashboardAction(
        args(formRequest(DASHBOARD, { intent: "add-test-question", question: "where is the velodrome" }, cookie)),
      ),
    );
    expect(added).toHaveRedirect(DASHBOARD);
    await expect(added).toSendToast({
      type: "success",
      description: "Added as a test question of Admissions Assistant",
      link: { to: "/northfield/agent/admissions/controls/test-questions", label: "Open Test Questions" },
    });
    const questions = (
      await apiCall("GET", `/v1/apps/${northfieldId}/test_questions?trigger_point=admissions`, { token: apiToken })
    ).body.data;
    expect(questions).toEqual([
      expect.objectContaining({ question: "where is the velodrome", expect_outcome: "answered" }),
    ]);

    // A second click (a double click posts twice) says it is kept already, and adds nothing.
    const again = await settle(() =>
      dashboardAction(
        args(formRequest(DASHBOARD, { intent: "add-test-question", question: "Where is the  velodrome" }, cookie)),
      ),
    );
    await expect(again).toSendToast({
      type: "info",
      description: "This question is already a test question of Admissions Assistant",
    });
    const after = await apiCall("GET", `/v1/apps/${northfieldId}/test_questions?trigger_point=admissions`, {
      token: apiToken,
    });
    expect(after.body.data).toHaveLength(1);
  });

  it("keeps it under an agent the client's profile does not list as a trigger point", async () => {
    await apiCall("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: apiToken,
      body: { app_id: northfieldId, name: "Open Day", site_code: "openday" },
    });
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const openDay = "/backoffice/northfield/dashboard?triggerPoint=openday&environment=stage";
    const added = await settle(() =>
      dashboardAction(
        args(formRequest(openDay, { intent: "add-test-question", question: "when is open day" }, cookie)),
      ),
    );
    await expect(added).toSendToast({
      type: "success",
      description: "Added as a test question of Open Day",
      link: { to: "/northfield/agent/openday/controls/test-questions", label: "Open Test Questions" },
    });
    const questions = (
      await apiCall("GET", `/v1/apps/${northfieldId}/test_questions?trigger_point=openday`, { token: apiToken })
    ).body.data;
    expect(questions).toEqual([expect.objectContaining({ question: "when is open day" })]);
  });

  it("comes back to the question it was taken on, and to the page's top for a gap it cannot name", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const post = (gap: string) =>
      settle(() =>
        dashboardAction(args(formRequest(DASHBOARD, { intent: "index-page", url_id: "not-a-row", gap }, cookie))),
      );
    expect(await post("3")).toHaveRedirect(`${DASHBOARD}#gap-3`);
    for (const gap of ["-1", "1.5", "1000", "x", "", "1\u0000", "9".repeat(1_000_000)])
      expect(await post(gap)).toHaveRedirect(DASHBOARD);
  });

  it("reads a trigger point it does not know, a NUL byte or a megabyte of it, as Default", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    for (const [question, trigger_point] of [
      ["does the campus have a planetarium", "admissions\u0000"],
      ["does the campus have a bowling alley", "x".repeat(1_000_000)],
    ]) {
      const added = await settle(() =>
        dashboardAction(
          args(
            formRequest(
              "/backoffice/northfield/dashboard",
              { intent: "add-test-question", question, trigger_point },
              cookie,
            ),
          ),
        ),
      );
      await expect(added).toSendToast({
        type: "success",
        description: "Added as a test question of Default",
        link: { to: "/northfield/controls/test-questions", label: "Open Test Questions" },
      });
    }
  });

  it("keeps it under the agent it was asked of when all trigger points are shown, and a code the client lacks under Default", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const allPoints = "/backoffice/northfield/dashboard";
    const asked = (question: string, trigger_point: string) =>
      settle(() =>
        dashboardAction(args(formRequest(allPoints, { intent: "add-test-question", question, trigger_point }, cookie))),
      );
    await expect(await asked("when does the library open", "openday")).toSendToast({
      type: "success",
      description: "Added as a test question of Open Day",
      link: { to: "/northfield/agent/openday/controls/test-questions", label: "Open Test Questions" },
    });
    await expect(await asked("when does the gym open", "not-a-point")).toSendToast({
      type: "success",
      description: "Added as a test question of Default",
      link: { to: "/northfield/controls/test-questions", label: "Open Test Questions" },
    });
    const defaults = (
      await apiCall("GET", `/v1/apps/${northfieldId}/test_questions?trigger_point=`, { token: apiToken })
    ).body.data;
    expect(defaults).toEqual(expect.arrayContaining([expect.objectContaining({ question: "when does the gym open" })]));
  });

  it("indexes a gap's page in one click", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const page = await loaderJson(dashboardLoader, args(getRequest(DASHBOARD, cookie)));
    const [velodrome] = page.insights.unanswered_questions.find(
      (q: { question: string }) => q.question === "where is the velodrome",
    )!.pages;
    const indexed = await settle(() =>
      dashboardAction(args(formRequest(DASHBOARD, { intent: "index-page", url_id: String(velodrome.url_id) }, cookie))),
    );
    await expect(indexed).toSendToast({ type: "success", description: "The page is queued for indexing" });
    const after = await loaderJson(dashboardLoader, args(getRequest(DASHBOARD, cookie)));
    const status = after.insights.unanswered_questions.find(
      (q: { question: string }) => q.question === "where is the velodrome",
    )!.pages[0].status;
    expect(["to_be_indexed", "sent_for_indexing", "failed_to_index", "indexed"]).toContain(status);
  });

  it("says so when no page is chosen to index", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const refused = await settle(() =>
      dashboardAction(args(formRequest(DASHBOARD, { intent: "index-page", url_id: "x" }, cookie))),
    );
    await expect(refused).toSendToast({ type: "error", description: "Choose a page to index" });
  });

  it("lets a read-only Client look at the gaps but not close them", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const refused = await settle(() =>
      dashboardAction(
        args(formRequest(DASHBOARD, { intent: "add-test-question", question: "where is the velodrome" }, cookie)),
      ),
    );
    expect(refused.status).toBe(403);
  });
});

describe("the User Profile Store", () => {
  it("lists and opens profiles", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const page = await loaderJson(
      profilesLoader,
      args(getRequest(`/backoffice/northfield/user_profiles?search=lee@&profile=${visitor}`, cookie)),
    );
    expect(page.list!.data.map((p: { conversation_id: string }) => p.conversation_id)).toEqual([visitor]);
    expect(page.detail!.messages).toHaveLength(4);
    expect(page.canDelete).toBe(false);
  });

  it("says so when the profile asked for is gone (deleted meanwhile, or not this client's), and only then", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const profileError = async (profile: string) =>
      (
        await loaderJson(
          profilesLoader,
          args(getRequest(`/backoffice/northfield/user_profiles?profile=${profile}&delete=1`, cookie)),
        )
      ).profileError;
    expect(await profileError("00000000-0000-4000-8000-000000000000")).toBe(
      "Profile not found: it may have been deleted since the list was shown.",
    );
    expect(await profileError("not-a-profile")).toBe(
      "Profile not found: it may have been deleted since the list was shown.",
    );
    expect(await profileError(visitor)).toBeNull();
  });

  it("exports the profiles found as CSV", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const csv = parseCsv(
      await (
        await settle(() =>
          exportLoader(args(getRequest("/backoffice/northfield/user_profiles/export?search=lee", cookie))),
        )
      ).text(),
    );
    expect(csv[0].slice(0, 3)).toEqual(["email", "Lead", "Score"]);
    expect(csv[1].slice(0, 3)).toEqual(["lee@example.com", "yes", "32"]);
  });

  it("pages by 10 rows unless the address asks for another of the table's sizes (spec section 9)", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const sizeOf = async (search: string) =>
      (await loaderJson(profilesLoader, args(getRequest(`/backoffice/northfield/user_profiles${search}`, cookie))))
        .filters.page_size;
    expect(await sizeOf("")).toBe(10);
    expect(await sizeOf("?page_size=20")).toBe(20);
    expect(await sizeOf("?page_size=7")).toBe(10);
  });

  it("shows the last page for a page past the end (its last profile just deleted, an old link)", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const past = await loaderJson(
      profilesLoader,
      args(getRequest("/backoffice/northfield/user_profiles?page=9", cookie)),
    );
    expect(past.list!.total).toBeGreaterThan(0);
    expect(past.filters.page).toBe(Math.ceil(past.list!.total / past.filters.page_size));
    expect(past.list!.data.length).toBeGreaterThan(0);
  });

  it("refuses a read-only Client's delete", async () => {
    const viewer = await signInToConsole(host, "client.user@example.com");
    const refused = await settle(() =>
      profilesAction(
        args(
          formRequest(
            `/backoffice/northfield/user_profiles?profile=${visitor}&delete=1`,
            { intent: "delete", profile_id: visitor },
            viewer,
          ),
        ),
      ),
    );
    expect(refused.status).toBe(403);
  });

  it("deletes a person for a client admin", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const done = await settle(() =>
      profilesAction(
        args(
          formRequest(
            `/backoffice/northfield/user_profiles?search=lee&profile=${visitor}&delete=1`,
            { intent: "delete", profile_id: visitor },
            cookie,
          ),
        ),
      ),
    );
    expect(done).toHaveRedirect("/backoffice/northfield/user_profiles?search=lee");
    await expect(done).toSendToast({ type: "success", description: "Deleted the person's profile and conversation" });
  });
});

describe("a chart's CSV past the limit on exports", () => {
  it("comes back to the page under the limit's 429 and Retry-After, saying so at the chart", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const exportOutcomes = () =>
      settle(() =>
        dashboardAction(
          args(formRequest("/backoffice/northfield/dashboard?environment=all", { chart: "outcomes" }, cookie)),
        ),
      );
    // STORAGE_WRITES_PER_MINUTE is 60 by default: an export is one write.
    let answer = await exportOutcomes();
    for (let tries = 0; tries < 70 && answer.status !== 429; tries++) answer = await exportOutcomes();
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await answer.json()).toEqual({
      chart: "outcomes",
      message: expect.stringMatching(/^Failed to download the CSV: Too many uploads and exports in a minute/),
    });
  });
});
