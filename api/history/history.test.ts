import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, configChanges, knowledgeFiles, testQuestions, testRuns, urls } from "../db/schema";
import { uploadPdf } from "../../tests/support/uploads";
import { makePdf, notAPdf } from "../../tests/support/pdf";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";

/** The configuration history through the API: what each save records, the list's filters and pages, and restores. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let viewer: string;
let staff: string;
let appId: number;
let otherAppId: number;

const ADMIN = "client.admin@example.com";
const SECRET = "sk-live-0123456789abcdef-2b4d";

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  admin = (await signInAs(host, ADMIN)).user_token;
  viewer = (await signInAs(host, "client.user@example.com")).user_token;
  staff = (await signInAs(host, "admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  [{ id: otherAppId }] = await host.deps.db
    .insert(clientApps)
    .values({ clientName: "Elsewhere", urlCode: "elsewhere-history" })
    .returning();
});
afterAll(() => host?.close());

interface Entry {
  id: number;
  at: string;
  user_email: string;
  kind: string;
  summary: string;
  before: unknown;
  after: unknown;
}
const history = async (query = "", token = admin) => {
  const { status, body } = await call("GET", `/v1/apps/${appId}/history${query}`, { token });
  expect(status).toBe(200);
  return body as { data: Entry[]; total: number };
};
const latest = async (kind: string) => (await history(`?kind=${kind}`)).data[0];
const restore = (id: number, token = admin, app = appId) =>
  call("POST", `/v1/apps/${app}/history/${id}/restore`, { token });

const savePersonality = (text: string, token = admin) =>
  call("PUT", "/v1/controls", {
    token,
    body: {
      app_id: appId,
      controls: [{ internal_name: "ai_personality_guidelines", prompt_input_raw: text, trigger_point: "" }],
    },
  });
const personalityOf = (state: unknown) =>
  (state as { internal_name: string; prompt_input_raw: string }[]).find(
    (c) => c.internal_name === "ai_personality_guidelines",
  )!.prompt_input_raw;

describe("what is recorded", () => {
  it("records a control saved: who, when, before and after as GET answers them; saving it unchanged records nothing", async () => {
    const started = Date.now();
    expect((await savePersonality("Be brief.")).status).toBe(200);
    const entry = await latest("controls");
    expect(entry).toMatchObject({
      user_email: ADMIN,
      kind: "controls",
      summary: "Chatbot Personality of Default changed",
    });
    expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(started - 1000);
    expect(personalityOf(entry.after)).toBe("Be brief.");
    expect(personalityOf(entry.before)).toContain("university"); // the built-in default it replaced
    const { total } = await history("?kind=controls");
    expect((await savePersonality("Be brief.")).status).toBe(200);
    expect((await history("?kind=controls")).total).toBe(total);
  });

  it("records finetuning saves and deletes, input prompts saved and deleted, and smart probing", async () => {
    const saved = await call("POST", "/v1/controls/upsert_finetunings", {
      token: admin,
      body: {
        app_id: appId,
        finetunings: [{ trigger_point: "", finetuning_type: "url_pattern", pattern: "/news/", penalty: 0.5 }],
      },
    });
    expect(saved.status).toBe(200);
    let entry = await latest("finetuning");
    expect(entry).toMatchObject({
      summary: "AI Finetuning: 1 rule added",
      before: [],
      after: [{ pattern: "/news/", penalty: 0.5 }],
    });
    await call("DELETE", "/v1/controls/bulk_delete_finetunings", {
      token: admin,
      body: { app_id: appId, ids: [saved.body.finetunings[0].id] },
    });
    entry = await latest("finetuning");
    expect(entry).toMatchObject({ summary: "AI Finetuning: 1 rule removed", after: [] });

    const prompts = await call("PUT", `/v1/apps/${appId}/input_prompts`, {
      token: admin,
      body: { input_prompts: [{ internal_name: "welcome", prompt_input_raw: "Say hello." }] },
    });
    entry = await latest("input_prompts");
    expect(entry).toMatchObject({
      summary: "Input prompts of Default: added welcome",
      before: [],
      after: [{ internal_name: "welcome", prompt_input_raw: "Say hello." }],
    });
    expect(JSON.stringify(entry.after)).not.toContain("updated_at");
    await call("DELETE", `/v1/apps/${appId}/input_prompts/${prompts.body.input_prompts[0].id}`, { token: admin });
    expect(await latest("input_prompts")).toMatchObject({
      summary: "Input prompts of Default: removed welcome",
      after: [],
    });

    await call("PUT", `/v1/apps/${appId}/ai_probings`, {
      token: admin,
      body: {
        app_id: appId,
        ai_probings: [{ internal_name: "topics", prompt_input_raw: "Fees", trigger_point: "admissions" }],
      },
    });
    expect(await latest("smart_probing")).toMatchObject({ summary: "Smart probing of Admissions Assistant changed" });
  });

  it("records appearance per trigger point and environment, and data models (saved, deleted, imported)", async () => {
    await call("PUT", `/v1/appearances?appId=${appId}&triggerPoint=admissions`, {
      token: admin,
      body: { appearance: { value: { primary_color: "#0a7d4f", bot_name: "Nora" } } },
    });
    const appearance = await latest("appearance");
    expect(appearance.summary).toBe("Appearance of Admissions Assistant (stage): Assistant Name, Primary Colour");
    expect(appearance.before).toMatchObject({ primary_color: "#1f4b99", bot_name: "Virtual Assistant" });
    expect(appearance.after).toMatchObject({ primary_color: "#0a7d4f", bot_name: "Nora" });

    const field = (name: string) => ({
      name,
      field_type: "text",
      group: "Academic Profile",
      model_type: "user_profile",
    });
    const saved = await call("POST", `/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
      token: admin,
      body: { personalisation_config_details: [field("major"), field("minor")] },
    });
    expect(await latest("data_model")).toMatchObject({
      summary: "User profile data model: added major, minor",
      before: [],
    });
    const minor = saved.body.personalisation_config_details.find((f: { name: string }) => f.name === "minor");
    await call("DELETE", `/v1/apps/${appId}/personalisation_config_details/delete_record`, {
      token: admin,
      body: { record_id: minor.id },
    });
    expect(await latest("data_model")).toMatchObject({
      summary: "User profile data model: removed minor",
      after: [{ name: "major" }],
    });
  });

  it("records integrations without any trace of their secrets", async () => {
    const save = (secret: string, name?: string) =>
      call("POST", `/v1/apps/${appId}/integrations/upsert`, {
        token: admin,
        body: {
          integrations: [
            {
              ...(name ? { name } : {}),
              external_system: "salesforce",
              usecase: "lead_sync",
              settings_json: {
                instance_url: "https://northfield.my.salesforce.com",
                client_id: "3MVG9-consumer-key",
                client_secret: secret,
              },
            },
          ],
        },
      });
    expect((await save(SECRET)).status).toBe(200);
    const first = await latest("integration");
    expect(first.summary).toBe("Integrations: added Salesforce (staging)");
    const recorded = JSON.stringify(first);
    for (const trace of [SECRET, "2b4d", "3MVG9-consumer-key", "enc:v1:", "••••"])
      expect(recorded).not.toContain(trace);
    expect((first.after as { settings_json: Record<string, string> }[])[0].settings_json.instance_url).toBe(
      "https://northfield.my.salesforce.com",
    );
    // A secret replaced is a change, seen as a new version of it, still without its value.
    expect((await save("another-secret-value-9f9f")).status).toBe(200);
    const second = await latest("integration");
    expect(second.id).not.toBe(first.id);
    expect(second.summary).toBe("Integrations: changed Salesforce (staging)");
    expect(JSON.stringify(second)).not.toContain("9f9f");
    const [before, after] = [second.before, second.after].map(
      (s) => (s as { settings_json: Record<string, string> }[])[0].settings_json.client_secret,
    );
    expect(before).toMatch(/^\[secret not recorded, version [0-9a-f]{8}\]$/);
    expect(after).not.toBe(before);
    // A new name is a change of the same integration (one per system, use case and environment).
    expect((await save("another-secret-value-9f9f", "CRM prod")).status).toBe(200);
    expect((await latest("integration")).summary).toBe("Integrations: changed CRM prod (staging)");
  });

  it("records websites' settings, agents and access", async () => {
    const site = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
      token: admin,
      body: { websites: [{ app_id: appId, url: "https://www.northfield.edu/", site_map: "full_website" }] },
    });
    expect(site.status).toBe(200);
    expect(await latest("website")).toMatchObject({
      summary: "Website https://www.northfield.edu/ added",
      before: null,
      after: { url: "https://www.northfield.edu/", enabled: true },
    });
    await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
      token: admin,
      body: { websites: [{ ...site.body.websites[0], tags: ["Production"] }] },
    });
    const tagged = await latest("website");
    expect(tagged.summary).toBe("Website https://www.northfield.edu/: Data Tags changed");
    expect(tagged.after).not.toHaveProperty("status");

    const agent = await call("POST", `/v1/apps/${appId}/agents/update_agents`, {
      token: admin,
      body: { app_id: appId, name: "Library Helper", site_code: "library" },
    });
    expect(agent.status).toBe(200);
    expect(await latest("agent")).toMatchObject({
      summary: "Agent Library Helper added",
      before: null,
      after: { site_code: "library" },
    });
    await call("POST", `/v1/apps/${appId}/agents/update_agents`, {
      token: admin,
      body: { app_id: appId, id: agent.body.id, name: "Library Guide", site_code: "library" },
    });
    expect(await latest("agent")).toMatchObject({
      summary: "Agent Library Guide: Name changed",
      before: { name: "Library Helper" },
      after: { name: "Library Guide" },
    });

    await call("POST", `/v1/apps/${appId}/users/upsert`, {
      token: admin,
      body: { users: [{ email: "advisor@northfield.edu", name: "Ada Advisor" }] },
    });
    const access = await latest("user_access");
    expect(access.summary).toBe("Access: added advisor@northfield.edu");
    expect(access.after).toContainEqual({ email: "advisor@northfield.edu", name: "Ada Advisor", role: "client_user" });
  });
});

describe("URL work", () => {
  const linesOf = async () =>
    ((await history("?kind=urls")).data[0] as unknown as { changes: { text: string }[] }).changes.map(
      (line) => line.text,
    );

  it("records pages added by hand, asked to be skipped, indexed again or deleted, and refresh days: who asked, and which pages", async () => {
    const base = "https://library.northfield.edu";
    const site = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
      token: admin,
      body: { websites: [{ app_id: appId, url: `${base}/`, site_map: "few_urls" }] },
    });
    expect(site.status).toBe(200);
    const websiteId = site.body.websites[0].id as number;
    const pages = ["hours", "rooms", "loans"].map((page) => `${base}/${page}`);
    const added = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, {
      token: admin,
      body: { urls: [...pages, `${base}/hours#today`] },
    });
    expect(added.body).toMatchObject({ created: 3 });
    expect(await latest("urls")).toMatchObject({
      user_email: ADMIN,
      summary: `URLs of ${base}/: 3 URLs added`,
      before: null,
      after: { urls: pages, count: 3 },
    });
    expect(await linesOf()).toEqual(pages);
    // Adding pages the website has records nothing.
    const before = (await history("?kind=urls")).total;
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, {
      token: admin,
      body: { urls: [pages[0]] },
    });
    expect((await history("?kind=urls")).total).toBe(before);

    const listed = await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?page_size=50`, { token: admin });
    const idOf = (url: string) =>
      (listed.body.data as { id: number; url: string }[]).find((row) => row.url === url)!.id;
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token: admin,
      body: { status: "to_be_skipped", url_ids: [idOf(pages[1]), idOf(pages[2])] },
    });
    expect(await latest("urls")).toMatchObject({
      summary: `URLs of ${base}/: 2 URLs to be skipped`,
      after: { status: "to_be_skipped", urls: [pages[1], pages[2]].sort(), count: 2 },
    });
    // The drawer's request names URLs of any of the client's websites.
    await call("POST", `/v1/apps/${appId}/urls/update_status`, {
      token: admin,
      body: { status: "to_be_indexed", force_index: true, url_ids: [idOf(pages[0])] },
    });
    expect(await latest("urls")).toMatchObject({
      user_email: ADMIN,
      summary: "URLs: 1 URL to be indexed again, unchanged pages too",
      after: { status: "to_be_indexed", force_index: true, urls: [pages[0]], count: 1 },
    });

    const days = await call("PUT", `/v1/apps/${appId}/websites/${websiteId}/urls/${idOf(pages[0])}`, {
      token: admin,
      body: { url: { refresh_days: 7 } },
    });
    expect(days.status).toBe(200);
    expect((await latest("urls")).summary).toBe(`URL ${pages[0]}: refreshed every 7 days`);
    expect(await linesOf()).toEqual(["Refresh every: '30 days' → '7 days'"]);

    // A request is no state: it is listed, never restored or reverted; another client sees none of it.
    const entry = await latest("urls");
    expect(await restore(entry.id)).toEqual({
      status: 400,
      body: { message: "This kind of change cannot be restored or reverted" },
    });
    const other = await call("GET", `/v1/apps/${otherAppId}/history?kind=urls`, { token: staff });
    expect(other.body.data).toEqual([]);
  });

  it("lists a request of many pages by its first addresses and counts the rest", async () => {
    const base = "https://archive.northfield.edu";
    const site = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
      token: admin,
      body: { websites: [{ app_id: appId, url: `${base}/`, site_map: "few_urls" }] },
    });
    const websiteId = site.body.websites[0].id as number;
    const pages = Array.from({ length: 130 }, (_, i) => `${base}/item-${String(i).padStart(3, "0")}`);
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, {
      token: admin,
      body: { urls: pages },
    });
    const entry = await latest("urls");
    expect(entry.summary).toBe(`URLs of ${base}/: 130 URLs added`);
    expect((entry.after as { urls: string[] }).urls).toHaveLength(100);
    const lines = await linesOf();
    expect(lines).toHaveLength(20);
    expect(lines.slice(0, 19)).toEqual(pages.slice(0, 19));
    expect(lines[19]).toBe("… and 111 more");
    // Pages changed since they were added: PostgreSQL writes a changed row anew at the end of the
    // table, and with its statistics up to date (autovacuum's analyse) reads the table in that order.
    await host.deps.db
      .update(urls)
      .set({ title: "Moved" })
      .where(and(eq(urls.websiteId, websiteId), inArray(urls.url, pages.slice(0, 10))));
    await host.deps.db.execute(sql`analyze urls`);
    // The whole website asked to be deleted: every URL it holds, counted.
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token: admin,
      body: { status: "to_be_deleted" },
    });
    // Its own address may have joined them meanwhile (the website's discovery runs as a job).
    const deleted = await latest("urls");
    expect(deleted.summary).toMatch(/^URLs of https:\/\/archive\.northfield\.edu\/: 13[01] URLs to be deleted$/);
    expect(deleted.after).toMatchObject({
      status: "to_be_deleted",
      count: Number(/: (\d+) URLs/.exec(deleted.summary)![1]),
    });
    // The addresses listed are the first in address order, whatever order the table holds them in.
    const listed = (deleted.after as { urls: string[] }).urls;
    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual(expect.arrayContaining(pages.slice(0, 10)));
  });
});

describe("files, the client profile and test questions", () => {
  const upload = (name: string, bytes: Buffer) => uploadPdf(host, admin, appId, name, bytes);
  const total = async (kind: string) => (await history(`?kind=${kind}`)).total;

  // Waits for the file's indexing job: on a loaded machine, longer than a test's usual 30 s.
  it("records a file once its upload completes, its tags changed and its deletion; never where it is kept, nor indexing", async () => {
    const before = await total("file");
    const pdf = makePdf([["Tuition is due on the first of March."]]);
    // Registering a name adds nothing yet: the file is added once its bytes are accepted.
    const presigned = await call("POST", `/v1/files/presigned_urls?app_id=${appId}`, {
      token: admin,
      body: { file_names: ["Waiting.pdf"] },
    });
    expect(presigned.status).toBe(200);
    expect(await total("file")).toBe(before);

    const { id, completed } = await upload("Fees 2026.pdf", pdf);
    expect(completed.status).toBe(200);
    const added = await latest("file");
    expect(added).toMatchObject({
      user_email: ADMIN,
      summary: "File Fees 2026.pdf added",
      before: null,
      after: { file_name: "Fees 2026.pdf", tags: [], size: pdf.length },
    });
    // Indexing (a job, nobody's change) records nothing.
    await until("the file to be indexed", async () => {
      const [row] = await host.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, id));
      return ["indexed", "failed_to_index"].includes(row.status) ? row : null;
    });
    expect(await total("file")).toBe(before + 1);

    const tag = (tags: string[], token = admin) =>
      call("PATCH", `/v1/files/${id}`, { token, body: { app_id: appId, tags } });
    expect((await tag(["production"])).status).toBe(200);
    const tagged = await latest("file");
    expect(tagged).toMatchObject({
      summary: "File Fees 2026.pdf: Tags changed",
      before: { tags: [] },
      after: { tags: ["production"] },
    });
    expect((tagged as Entry & { changes: { text: string }[] }).changes).toEqual([
      { text: "Files: changed 'Fees 2026.pdf': Tags: added 'Production'" },
    ]);
    // The same tags again, or a read-only user's try, record nothing.
    expect((await tag(["production"])).status).toBe(200);
    expect((await tag(["sandbox"], viewer)).status).toBe(403);
    expect(await total("file")).toBe(before + 2);

    expect((await call("DELETE", `/v1/files/${id}?app_id=${appId}`, { token: admin })).status).toBe(200);
    expect(await latest("file")).toMatchObject({
      summary: "File Fees 2026.pdf removed",
      before: { file_name: "Fees 2026.pdf", tags: ["production"] },
      after: null,
    });

    // A refused upload was never added, and its deletion removes nothing from the knowledge store.
    const refused = await upload("Not really.pdf", notAPdf());
    expect(refused.completed.status).toBe(400);
    expect((await call("DELETE", `/v1/files/${refused.id}?app_id=${appId}`, { token: admin })).status).toBe(200);
    expect(await total("file")).toBe(before + 3);

    const recorded = JSON.stringify((await history("?kind=file")).data);
    for (const trace of ["uploads/", "apps/", "storage", "key", "indexed", "status"])
      expect(recorded).not.toContain(trace);
  }, 90_000);

  it("records a client profile save by the form's labels; an unchanged save and a refused one record nothing", async () => {
    const { body: apps } = await call("GET", "/v1/apps", { token: admin });
    const profile = apps.apps.find((a: { id: number }) => a.id === appId);
    const { id: _, agents: __, ...input } = profile;
    const save = (changes: object, token = admin) =>
      call("PUT", `/v1/apps/${appId}`, { token, body: { ...input, ...changes } });

    const before = await total("client");
    expect((await save({})).status).toBe(200);
    expect(await total("client")).toBe(before);

    const points = [...input.trigger_points, "library"];
    expect((await save({ client_name: "Northfield University (Main)", trigger_points: points })).status).toBe(200);
    const entry = (await history("?kind=client")).data[0] as Entry & { changes: { text: string }[] };
    expect(entry).toMatchObject({
      user_email: ADMIN,
      summary: "Client Profile: Client Name, Trigger Points changed",
      before: { client_name: input.client_name, trigger_points: input.trigger_points },
      after: { client_name: "Northfield University (Main)", trigger_points: points },
    });
    expect(entry.changes.map((line) => line.text)).toEqual([
      `Client Profile: Client Name '${input.client_name}' → 'Northfield University (Main)'`,
      "Client Profile: Trigger Points: added 'library'",
    ]);
    expect(entry.after).not.toHaveProperty("agents");
    expect(entry.after).not.toHaveProperty("updated_at");

    // A save the API refuses, and one by a read-only user, leave nothing behind.
    expect((await save({ url_code: "northfield-two", notes: "Refused" })).status).toBe(400);
    expect((await save({ notes: "Not allowed" }, viewer)).status).toBe(403);
    expect(await total("client")).toBe(before + 1);
    expect((await save({ client_name: input.client_name, trigger_points: input.trigger_points })).status).toBe(200);
  });

  it("records test questions added, changed, moved, deleted (each on its own) and imported (what the file added), never another client's", async () => {
    // Another client's question of its own Default is never in this client's state.
    await host.deps.db
      .insert(testQuestions)
      .values({ appId: otherAppId, question: "Theirs?", expectOutcome: "answered" });
    const base = `/v1/apps/${appId}/test_questions`;
    const question = (text: string, triggerPoint = "") => ({
      trigger_point: triggerPoint,
      question: text,
      expect_text: "March",
    });
    const before = await total("test_questions");

    const created = await call("POST", base, { token: admin, body: question("When are fees due?") });
    expect(created.status).toBe(201);
    const added = await latest("test_questions");
    expect(added).toMatchObject({
      user_email: ADMIN,
      summary: "Test Questions of Default: 1 added",
      before: null,
      after: {
        id: created.body.id,
        trigger_point: "",
        question: "When are fees due?",
        expect_source: null,
        expect_text: "March",
        expect_outcome: null,
      },
    });
    expect(JSON.stringify(added)).not.toContain("Theirs?");
    expect(JSON.stringify(added.after)).not.toContain("updated_at");

    // A second copy is refused (409): nothing recorded. The same question saved unchanged: nothing either.
    expect((await call("POST", base, { token: admin, body: question("when are FEES due?") })).status).toBe(409);
    const put = (body: object) => call("PUT", `${base}/${created.body.id}`, { token: admin, body });
    expect((await put(question("When are fees due?"))).status).toBe(200);
    expect(await total("test_questions")).toBe(before + 1);

    expect((await put({ ...question("When are fees due?"), expect_outcome: "answered" })).status).toBe(200);
    expect(await latest("test_questions")).toMatchObject({ summary: "Test Questions of Default: 1 changed" });

    // Moved to the admissions agent: one change of the question, from one agent to the other.
    expect((await put(question("When are fees due?", "admissions"))).status).toBe(200);
    expect(await latest("test_questions")).toMatchObject({
      summary: "Test Questions: 1 moved from Default to Admissions Assistant",
      before: { trigger_point: "" },
      after: { trigger_point: "admissions" },
    });

    const imported = await call("POST", `${base}/import`, {
      token: admin,
      body: {
        trigger_point: "admissions",
        questions: Array.from({ length: 30 }, (_, i) => ({ question: `Imported question ${i}?`, expect_text: "x" })),
      },
    });
    expect(imported.status).toBe(201);
    const importEntry = await latest("test_questions");
    expect(importEntry.summary).toBe("Test Questions of Admissions Assistant: 30 added");
    // The import's state is the questions it added, not the agent's whole list.
    expect(importEntry.before).toBeNull();
    expect((importEntry.after as { questions: { question: string }[] }).questions.map((q) => q.question)).toEqual(
      Array.from({ length: 30 }, (_, i) => `Imported question ${i}?`),
    );
    expect(await total("test_questions")).toBe(before + 4);

    // One more question stores that question alone, however many its agent has.
    const small = await call("POST", base, { token: admin, body: question("Small?", "admissions") });
    expect((await latest("test_questions")).after).toMatchObject({ id: small.body.id, question: "Small?" });
    expect(JSON.stringify((await latest("test_questions")).after)).not.toContain("Imported question");
    expect((await call("DELETE", `${base}/${small.body.id}`, { token: admin })).status).toBe(200);
    expect(await total("test_questions")).toBe(before + 6);

    expect((await call("DELETE", `${base}/${created.body.id}`, { token: admin })).status).toBe(200);
    expect(await latest("test_questions")).toMatchObject({
      summary: "Test Questions of Admissions Assistant: 1 removed",
      after: null,
    });
    expect((await call("DELETE", `${base}/${created.body.id}`, { token: admin })).status).toBe(404);
    expect(await total("test_questions")).toBe(before + 7);
    // The restores below count the test runs a change queues: only the questions they add are asked.
    await host.deps.db.delete(testQuestions).where(eq(testQuestions.appId, appId));
  });
});

describe("the list", () => {
  it("filters by kind and by person (any case), pages latest first and counts the total", async () => {
    await savePersonality("Be brief and kind.", staff);
    const mine = await history(`?user=${ADMIN.toUpperCase()}`);
    expect(mine.data.every((e) => e.user_email === ADMIN)).toBe(true);
    expect((await history("?user=admin@example.com")).data.map((e) => e.summary)).toEqual([
      "Chatbot Personality of Default changed",
    ]);
    const all = await history("?page_size=100");
    expect(all.total).toBe(all.data.length);
    const ids = all.data.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const second = await history("?page_size=2&page=2");
    expect(second).toEqual({ data: all.data.slice(2, 4), total: all.total, total_is_capped: false });
    expect((await history("?kind=&user=")).total).toBe(all.total);
    expect((await history("?page=100000")).data).toEqual([]);
  });

  it("counts a long history up to 10,000 and says so, and still pages past it", async () => {
    const [other] = await host.deps.db
      .insert(clientApps)
      .values({ clientName: "Long history", urlCode: "long-history" })
      .returning();
    const at = Date.now();
    for (let start = 0; start < 10_050; start += 2_000) {
      await host.deps.db.insert(configChanges).values(
        Array.from({ length: Math.min(2_000, 10_050 - start) }, (_, i) => ({
          appId: other.id,
          at: new Date(at - (start + i) * 1_000),
          userEmail: "someone@example.com",
          kind: "controls",
          summary: `Change ${start + i}`,
          before: null,
          after: null,
        })),
      );
    }
    const { status, body } = await call("GET", `/v1/apps/${other.id}/history?page_size=25&page=402`, { token: staff });
    expect(status).toBe(200);
    expect(body.total).toBe(10_000);
    expect(body.total_is_capped).toBe(true);
    expect(body.data.map((e: Entry) => e.summary)).toEqual([
      "Change 10025",
      "Change 10026",
      "Change 10027",
      "Change 10028",
      "Change 10029",
      "Change 10030",
      "Change 10031",
      "Change 10032",
      "Change 10033",
      "Change 10034",
      "Change 10035",
      "Change 10036",
      "Change 10037",
      "Change 10038",
      "Change 10039",
      "Change 10040",
      "Change 10041",
      "Change 10042",
      "Change 10043",
      "Change 10044",
      "Change 10045",
      "Change 10046",
      "Change 10047",
      "Change 10048",
      "Change 10049",
    ]);
    // Each says how many changes to the same thing were recorded after it, counted up to 100.
    expect(body.data.map((e: Entry & { later_changes: number }) => e.later_changes).slice(0, 3)).toEqual([24, 23, 22]);
    const newest = await call("GET", `/v1/apps/${other.id}/history?page_size=1`, { token: staff });
    expect(newest.body.data[0]).toMatchObject({ summary: "Change 0", later_changes: 100 });
    expect((await call("GET", `/v1/apps/${other.id}/history?kind=agent`, { token: staff })).body).toEqual({
      data: [],
      total: 0,
      total_is_capped: false,
    });
  });

  it("refuses bad filters and pages, and hostile input, with a 4xx and a message", async () => {
    for (const query of [
      "?page_size=101",
      "?page_size=0",
      "?page=0",
      "?page=100001",
      "?page=99999999999999999999",
      "?page=abc",
      "?kind=secrets",
      "?user=a%00b",
      `?user=${"x".repeat(1_000_000)}`,
      `?kind=${"controls".repeat(20_000)}`,
    ]) {
      const { status, body } = await call("GET", `/v1/apps/${appId}/history${query}`, { token: admin });
      expect(status, query.slice(0, 40)).toBe(400);
      expect(body.message).toEqual(expect.any(String));
    }
    const hugeId = await restore(Number("9".repeat(30)));
    expect(hugeId.status).toBe(400);
    const nul = await call("POST", `/v1/apps/${appId}/history/1%00/restore`, { token: admin });
    expect(nul.status).toBe(400);
    expect(nul.body.message).toEqual(expect.any(String));
  });

  it("is read by read-only users, and another client's history is never reachable", async () => {
    expect((await history("", viewer)).total).toBeGreaterThan(0);
    expect((await call("GET", `/v1/apps/${otherAppId}/history`, { token: admin })).status).toBe(404);
    const [foreign] = await host.deps.db
      .insert(configChanges)
      .values({
        appId: otherAppId,
        userEmail: "someone@elsewhere.test",
        kind: "controls",
        target: "",
        summary: "Theirs",
        before: [],
        after: [],
      })
      .returning();
    expect((await history("?page_size=100")).data.map((e) => e.id)).not.toContain(foreign.id);
    const across = await restore(foreign.id);
    expect(across.status).toBe(404);
    expect(across.body.message).toBe("Change not found");
    expect((await restore(foreign.id, admin, otherAppId)).status).toBe(404);
  });
});

describe("the OpenAPI document", () => {
  it("lists both calls with their parameters", async () => {
    const { body } = await call("GET", "/v1/openapi.json");
    const list = body.paths["/v1/apps/{appId}/history"].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual([
      "appId",
      "kind",
      "user",
      "page",
      "page_size",
    ]);
    expect(list.parameters.find((p: { name: string }) => p.name === "page_size").schema).toMatchObject({
      maximum: 100,
    });
    expect(list.responses[200].content["application/json"].schema.properties.data).toBeDefined();
    expect(body.paths["/v1/apps/{appId}/history/{id}/restore"].post.tags).toEqual(["History"]);
  });
});

describe("restore", () => {
  const stageRuns = async () =>
    // Ordered by id: Postgres returns rows in no set order once some have been updated.
    (await host.deps.db.select().from(testRuns).where(eq(testRuns.appId, appId)).orderBy(asc(testRuns.id))).filter(
      (r) => r.environment === "stage",
    );

  it("writes a control's recorded state back, records it as a change of its own and queues a test run", async () => {
    await host.deps.db.insert(testQuestions).values({ appId, question: "Who are you?", expectOutcome: "answered" });
    await savePersonality("First version.");
    const first = await latest("controls");
    await savePersonality("Second version.");
    // Earlier tests' indexing ends first: its end queues a "website indexed" run, and a run still
    // waiting would absorb the restore's.
    await until("earlier indexing to end", async () => {
      const { rows } = (await host.deps.db.execute(
        sql`select count(*)::int as n from pgboss.job where pgboss.job.name like 'website-%' and pgboss.job.state in ('created', 'retry', 'active')`,
      )) as unknown as { rows: { n: number }[] };
      return Number(rows[0].n) === 0;
    });
    // The save queued a run; once it has run, the restore queues the next.
    await host.deps.db.update(testRuns).set({ status: "done" }).where(eq(testRuns.appId, appId));
    const runsBefore = (await stageRuns()).length;

    const restored = await restore(first.id);
    expect(restored.status).toBe(200);
    expect(restored.body.message).toMatch(
      /^Restored the controls of Default to the state of \d\d\/\d\d\/\d{4} \| \d\d:\d\d UTC$/,
    );
    const listed = await call("GET", `/v1/controls?app_id=${appId}&trigger_point=&types=ai_personality_guidelines`, {
      token: admin,
    });
    expect(listed.body.controls[0].prompt_input_raw).toBe("First version.");
    const entry = await latest("controls");
    expect(entry).toMatchObject({ id: restored.body.id, user_email: ADMIN, summary: restored.body.message });
    expect(personalityOf(entry.before)).toBe("Second version.");
    expect(personalityOf(entry.after)).toBe("First version.");
    const runs = await stageRuns();
    expect(runs.length).toBe(runsBefore + 1);
    expect(runs.at(-1)).toMatchObject({ trigger: "controls restored", triggerPoint: "" });

    // Restoring the state the thing is in changes nothing and records nothing.
    const again = await restore(first.id);
    expect(again.body).toEqual({ id: null, message: "Nothing to restore: this is the current state already" });
  });

  it("restores topics: those added since are deleted, the recorded ones come back", async () => {
    const topics = (rows: [string, string][]) =>
      call("PUT", "/v1/controls", {
        token: admin,
        body: {
          app_id: appId,
          controls: rows.map(([topic, disclaimer]) => ({
            internal_name: "sensitive_topics",
            prompt_input_raw: topic,
            metadata: { disclaimer },
            trigger_point: "admissions",
          })),
        },
      });
    await topics([["Visas", "Ask the visa office."]]);
    const recorded = await latest("controls");
    await topics([["Housing", "See the housing page."]]);
    expect((await restore(recorded.id)).status).toBe(200);
    const listed = await call("GET", `/v1/controls?app_id=${appId}&trigger_point=admissions&types=sensitive_topics`, {
      token: admin,
    });
    expect(listed.body.controls.map((c: { prompt_input_raw: string }) => c.prompt_input_raw)).toEqual(["Visas"]);
  });

  it("restores the finetuning table and input prompts, queueing runs as their saves do", async () => {
    const upsert = (rows: object[]) =>
      call("POST", "/v1/controls/upsert_finetunings", { token: admin, body: { app_id: appId, finetunings: rows } });
    const first = await upsert([{ trigger_point: "", finetuning_type: "url_pattern", pattern: "/old/", penalty: 0.2 }]);
    const recorded = await latest("finetuning");
    await upsert([
      {
        id: first.body.finetunings[0].id,
        trigger_point: "",
        finetuning_type: "url_pattern",
        pattern: "/old/",
        penalty: 0.9,
      },
      { trigger_point: "", finetuning_type: "html_weightage", pattern: "/blog/", penalty: 0.5 },
    ]);
    await host.deps.db.update(testRuns).set({ status: "done" }).where(eq(testRuns.appId, appId));
    expect((await restore(recorded.id)).status).toBe(200);
    const rules = (await call("GET", `/v1/controls/list_finetunings?app_id=${appId}`, { token: admin })).body
      .finetunings;
    expect(rules).toEqual(recorded.after);
    expect((await stageRuns()).at(-1)).toMatchObject({ trigger: "finetuning restored", status: "queued" });
    expect(await latest("finetuning")).toMatchObject({
      summary: expect.stringMatching(/^Restored the AI Finetuning rules/),
    });

    const prompts = (rows: [string, string, number?][]) =>
      call("PUT", `/v1/apps/${appId}/input_prompts`, {
        token: admin,
        body: {
          input_prompts: rows.map(([key, text, id]) => ({ id, internal_name: key, prompt_input_raw: text })),
        },
      });
    const fees = (await prompts([["fees", "Quote the fees page."]])).body.input_prompts[0].id as number;
    const promptState = await latest("input_prompts");
    await prompts([
      ["fees", "Never quote fees.", fees],
      ["tone", "Be formal."],
    ]);
    await host.deps.db.update(testRuns).set({ status: "done" }).where(eq(testRuns.appId, appId));
    expect((await restore(promptState.id)).status).toBe(200);
    const listed = (await call("GET", `/v1/apps/${appId}/input_prompts`, { token: admin })).body.input_prompts;
    expect(
      listed.map((p: { internal_name: string; prompt_input_raw: string }) => [p.internal_name, p.prompt_input_raw]),
    ).toEqual([["fees", "Quote the fees page."]]);
    expect((await stageRuns()).at(-1)).toMatchObject({ trigger: "input prompts restored" });
  });

  it("restores an appearance and a data model", async () => {
    const paint = (color: string) =>
      call("PUT", `/v1/appearances?appId=${appId}&triggerPoint=`, {
        token: admin,
        body: { appearance: { value: { primary_color: color } } },
      });
    await paint("#112233");
    const recorded = await latest("appearance");
    await paint("#445566");
    expect((await restore(recorded.id)).status).toBe(200);
    expect(
      (await call("GET", `/v1/appearances?appId=${appId}&triggerPoint=`, { token: admin })).body.data.primary_color,
    ).toBe("#112233");
    expect((await latest("appearance")).summary).toMatch(/^Restored the appearance of Default \(stage\)/);

    // A production state is restored into stage: production changes only through the push and its gate.
    const push = (color: string) =>
      call("PUT", `/v1/appearances?appId=${appId}&triggerPoint=`, {
        token: admin,
        body: { appearance: { value: { primary_color: color } }, targetEnv: "production" },
      });
    await push("#778899");
    const pushed = await latest("appearance");
    expect(pushed.summary).toMatch(/^Pushed to production: Appearance of Default \(production\)/);
    await paint("#000000");
    await push("#abcdef");
    expect((await restore(pushed.id)).status).toBe(200);
    const both = (
      await call("POST", `/v1/appearances/get_diff?appId=${appId}&triggerPoint=`, {
        token: admin,
        body: { appearance: { value: {} } },
      })
    ).body;
    expect(both.current_stage_style_guide.primary_color).toBe("#778899");
    expect(both.current_prod_style_guide.primary_color).toBe("#abcdef");
    expect((await latest("appearance")).summary).toMatch(
      /^Restored the appearance of Default \(stage, from production's\)/,
    );

    const base = `/v1/apps/${appId}/personalisation_config_details`;
    const fields = (await call("GET", `${base}?model_type=user_profile`, { token: admin })).body
      .personalisation_config_details as { id: number; name: string }[];
    const model = await latest("data_model");
    const major = fields.find((f) => f.name === "major")!;
    await call("POST", `${base}/create_and_update`, {
      token: admin,
      body: {
        personalisation_config_details: [
          {
            id: major.id,
            name: "main_subject",
            field_type: "text",
            group: "Academic Profile",
            model_type: "user_profile",
          },
          { name: "gpa", field_type: "number", group: "Academic Profile", model_type: "user_profile" },
        ],
      },
    });
    expect((await restore(model.id)).status).toBe(200);
    const after = (await call("GET", `${base}?model_type=user_profile`, { token: admin })).body
      .personalisation_config_details;
    expect(after).toEqual(model.after);
  });

  it("is refused to read-only users, and for kinds that cannot be restored", async () => {
    const entry = await latest("controls");
    const forbidden = await restore(entry.id, viewer);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toEqual(expect.any(String));
    for (const kind of [
      "integration",
      "website",
      "agent",
      "user_access",
      "smart_probing",
      "file",
      "client",
      "test_questions",
    ]) {
      const entry = await latest(kind);
      const refused = await restore(entry.id);
      expect(refused).toEqual({ status: 400, body: { message: "This kind of change cannot be restored or reverted" } });
      const reverted = await call("POST", `/v1/apps/${appId}/history/${entry.id}/restore`, {
        token: admin,
        body: { state: "before" },
      });
      expect(reverted, kind).toEqual({
        status: 400,
        body: { message: "This kind of change cannot be restored or reverted" },
      });
    }
  });
});
