import { and, asc, eq, gt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiProbings, clientApps, configChanges, controlTopics, finetunings, inputPrompts } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let northfieldId: number;

const northfield = async () =>
  (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0]?.id;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  admin = (await signInAs(host, "admin@example.com")).user_token;
  northfieldId = await northfield();
  const app_id = northfieldId;
  const saves = await Promise.all([
    call("PUT", `/v1/controls?app_id=${app_id}`, {
      token: admin,
      body: {
        controls: [
          { internal_name: "ai_personality_guidelines", prompt_input_raw: "Be brief.", trigger_point: "admissions" },
          {
            internal_name: "sensitive_topics",
            prompt_input_raw: "Financial aid",
            metadata: { disclaimer: "Confirm with the aid office." },
            trigger_point: "admissions",
          },
          {
            internal_name: "sensitive_topics",
            prompt_input_raw: "Visas",
            metadata: { disclaimer: "Rules change often." },
            trigger_point: "admissions",
          },
          {
            internal_name: "no_go_topics",
            prompt_input_raw: "Politics",
            metadata: { disclaimer: "I stay neutral on politics." },
          },
          {
            internal_name: "quality_check",
            metadata: { min_retrieval_confidence: 0.7, require_source: true },
            trigger_point: "admissions",
          },
        ],
      },
    }),
    call("PUT", `/v1/apps/${app_id}/ai_probings`, {
      token: admin,
      body: {
        ai_probings: [
          { internal_name: "topics", prompt_input_raw: "Start term\nStudy mode", trigger_point: "admissions" },
          {
            internal_name: "topic_to_prob_mapping",
            prompt_input_raw: "Start term -> Which term would you like to start?",
            trigger_point: "admissions",
          },
        ],
      },
    }),
    call("PUT", `/v1/apps/${app_id}/input_prompts`, {
      token: admin,
      body: {
        input_prompts: [
          {
            internal_name: "welcome_message",
            prompt_input_raw: "Hi! How can I help with your application?",
            trigger_point: "admissions",
          },
        ],
      },
    }),
    call("POST", "/v1/controls/upsert_finetunings", {
      token: admin,
      body: {
        app_id,
        finetunings: [
          { finetuning_type: "url_pattern", pattern: "/news/", penalty: 0.5 },
          { trigger_point: "admissions", finetuning_type: "pdf_weightage", pattern: "*", penalty: 0.2 },
          { finetuning_type: "html_tags_to_remove", metadata: { tags: ["table", ".promo"] } },
        ],
      },
    }),
  ]);
  for (const saved of saves) expect(saved.status).toBe(200);
});
afterAll(() => host?.close());

/** What the screens show for the client, without ids. */
async function screensOf(appId: number) {
  const strip = <T extends { id?: unknown; app_id?: unknown; updated_at?: unknown }>(rows: T[]) =>
    rows.map(({ id: _i, app_id: _a, updated_at: _u, ...rest }) => rest);
  const get = async (path: string) => (await call("GET", path, { token: admin })).body;
  const result: Record<string, unknown> = {};
  for (const point of ["", "admissions"]) {
    result[`controls:${point}`] = strip((await get(`/v1/controls?app_id=${appId}&trigger_point=${point}`)).controls);
    result[`probings:${point}`] = strip(
      (await get(`/v1/apps/${appId}/ai_probings?trigger_point=${point}`)).ai_probings,
    );
    result[`prompts:${point}`] = strip(
      (await get(`/v1/apps/${appId}/input_prompts?trigger_point=${point}`)).input_prompts,
    );
  }
  result.finetunings = strip((await get(`/v1/controls/list_finetunings?app_id=${appId}`)).finetunings);
  return result;
}

const counts = async (appId: number) => ({
  topics: (await host.deps.db.select().from(controlTopics).where(eq(controlTopics.appId, appId))).length,
  probings: (await host.deps.db.select().from(aiProbings).where(eq(aiProbings.appId, appId))).length,
  prompts: (await host.deps.db.select().from(inputPrompts).where(eq(inputPrompts.appId, appId))).length,
  rules: (await host.deps.db.select().from(finetunings).where(eq(finetunings.appId, appId))).length,
});

describe("controls, probing, prompts and finetuning in the client export", () => {
  let fileName: string;
  let before: Record<string, unknown>;

  it("exports every section", async () => {
    before = await screensOf(northfieldId);
    const exported = await call("POST", `/v1/apps/${northfieldId}/exports/export`, { token: admin });
    fileName = exported.body.file_name;
    const file = JSON.parse((await host.deps.storage.get(`exports/${fileName}`))!.toString());
    expect(
      file.controls
        .map((c: { internal_name: string; prompt_input_raw: string }) => `${c.internal_name}:${c.prompt_input_raw}`)
        .sort(),
    ).toEqual([
      "ai_personality_guidelines:Be brief.",
      "no_go_topics:Politics",
      "quality_check:",
      "sensitive_topics:Financial aid",
      "sensitive_topics:Visas",
    ]);
    expect(file.ai_probings).toHaveLength(2);
    expect(file.input_prompts).toEqual([
      {
        internal_name: "welcome_message",
        prompt_input_raw: "Hi! How can I help with your application?",
        trigger_point: "admissions",
      },
    ]);
    expect(file.finetunings).toEqual([
      { trigger_point: "", finetuning_type: "url_pattern", pattern: "/news/", penalty: 0.5, metadata: {} },
      { trigger_point: "admissions", finetuning_type: "pdf_weightage", pattern: "*", penalty: 0.2, metadata: {} },
      {
        trigger_point: "",
        finetuning_type: "html_tags_to_remove",
        pattern: "",
        penalty: null,
        metadata: { tags: ["table", ".promo"] },
      },
    ]);
  });

  it("imports them into a fresh client exactly, and importing again changes nothing", async () => {
    await host.deps.db.delete(clientApps).where(eq(clientApps.id, northfieldId));
    const imported = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: fileName } });
    expect(imported.body.created).toBe(true);
    const id = await northfield();
    expect(await screensOf(id)).toEqual(before);
    const once = await counts(id);
    expect(once).toEqual({ topics: 3, probings: 2, prompts: 1, rules: 3 });
    await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: fileName } });
    expect(await counts(id)).toEqual(once);
    expect(await screensOf(id)).toEqual(before);
  });

  it("replaces a topic list with the file's, and keeps rules and prompts the file does not name", async () => {
    const id = await northfield();
    await call("PUT", `/v1/controls?app_id=${id}`, {
      token: admin,
      body: {
        controls: [
          {
            internal_name: "sensitive_topics",
            prompt_input_raw: "Housing",
            metadata: { disclaimer: "Rooms are limited." },
            trigger_point: "admissions",
          },
        ],
      },
    });
    await call("PUT", `/v1/apps/${id}/input_prompts`, {
      token: admin,
      body: { input_prompts: [{ internal_name: "goodbye", prompt_input_raw: "Bye!", trigger_point: "admissions" }] },
    });
    await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: fileName } });
    const topics = (
      await call("GET", `/v1/controls?app_id=${id}&trigger_point=admissions&types=sensitive_topics`, { token: admin })
    ).body.controls;
    expect(topics.map((t: { prompt_input_raw: string }) => t.prompt_input_raw)).toEqual(["Financial aid", "Visas"]);
    const prompts = (await call("GET", `/v1/apps/${id}/input_prompts?trigger_point=admissions`, { token: admin })).body
      .input_prompts;
    expect(prompts.map((p: { internal_name: string }) => p.internal_name)).toEqual(["welcome_message", "goodbye"]);
  });

  it("still imports files written before these sections existed", async () => {
    const file = JSON.parse((await host.deps.storage.get(`exports/${fileName}`))!.toString());
    const { ai_probings: _p, input_prompts: _i, finetunings: _f, ...older } = file;
    await host.deps.storage.put(
      "exports/older.json",
      JSON.stringify({
        ...older,
        app: { ...older.app, url_code: "older-copy", client_name: "Older Copy" },
        controls: [],
      }),
    );
    const imported = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "older.json" } });
    expect(imported).toMatchObject({ status: 200, body: { created: true } });
    expect(await counts(imported.body.app.id)).toEqual({ topics: 0, probings: 0, prompts: 0, rules: 0 });
  });

  it("refuses invalid sections with field errors and writes nothing", async () => {
    const file = JSON.parse((await host.deps.storage.get(`exports/${fileName}`))!.toString());
    const id = await northfield();
    const before = await counts(id);
    const broken = {
      ...file,
      finetunings: [
        { finetuning_type: "url_pattern", pattern: "/x/", penalty: 2 },
        { finetuning_type: "html_tags_to_remove", metadata: { tags: ["div > p"] } },
        { finetuning_type: "url_pattern", pattern: "/y/", penalty: 0.5, metadata: { ["k".repeat(101)]: 1 } },
      ],
      controls: [
        ...file.controls,
        ...Array.from({ length: 8 }, (_, i) => ({
          internal_name: "no_go_topics",
          prompt_input_raw: `Extra ${i}`,
          metadata: { disclaimer: "No." },
        })),
        {
          internal_name: "ai_personality_guidelines",
          trigger_point: "admissions",
          prompt_input_raw: "Be brief.",
          metadata: { note: "x".repeat(20_001) },
        },
      ],
      input_prompts: [{ internal_name: "", prompt_input_raw: "x" }],
    };
    await host.deps.storage.put("exports/broken-controls.json", JSON.stringify(broken));
    const refused = await call("POST", "/v1/import_from_file", {
      token: admin,
      body: { file_name: "broken-controls.json" },
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors).sort()).toEqual([
      "controls.12",
      `controls.${file.controls.length + 8}.metadata`,
      "finetunings.0.penalty",
      "finetunings.1.metadata",
      "finetunings.2.metadata",
      "input_prompts.0.internal_name",
    ]);
    expect(await counts(id)).toEqual(before);
  });
});

describe("topics an import leaves as they are", () => {
  const preview = (file_name: string) =>
    call("POST", "/v1/import_from_file/preview", { token: admin, body: { file_name } });
  const importFile = (file_name: string) => call("POST", "/v1/import_from_file", { token: admin, body: { file_name } });
  /** Each topic of the client as its id and what the Controls screen shows of it. */
  const topicsOf = async (appId: number) =>
    (
      await host.deps.db
        .select()
        .from(controlTopics)
        .where(eq(controlTopics.appId, appId))
        .orderBy(asc(controlTopics.id))
    ).map((t) => ({
      id: t.id,
      list: `${t.triggerPoint}/${t.internalName}`,
      topic: t.promptInputRaw,
      metadata: t.metadata,
    }));
  const lastChangeId = async (appId: number) =>
    (await host.deps.db.select({ id: configChanges.id }).from(configChanges).where(eq(configChanges.appId, appId)))
      .map((row) => row.id)
      .reduce((a, b) => Math.max(a, b), 0);
  const changesSince = (appId: number, id: number) =>
    host.deps.db
      .select()
      .from(configChanges)
      .where(and(eq(configChanges.appId, appId), gt(configChanges.id, id)))
      .orderBy(asc(configChanges.id));

  it("keeps the topics and their ids, and neither asks about nor records a change, when the file holds them as they are", async () => {
    const id = await northfield();
    const exported = await call("POST", `/v1/apps/${id}/exports/export`, { token: admin });
    const fileName = exported.body.file_name;
    const topics = await topicsOf(id);
    expect(topics.length).toBeGreaterThan(0);
    const since = await lastChangeId(id);

    expect((await preview(fileName)).body).toMatchObject({ changes: [], change_count: 0 });
    const imported = await importFile(fileName);
    expect(imported.status).toBe(200);
    expect(imported.body.message).toMatch(/nothing changed$/);
    expect(await changesSince(id, since)).toEqual([]);
    expect(await topicsOf(id)).toEqual(topics);
  });

  it("records exactly the topic whose text the file changed, keeping every topic's id", async () => {
    const id = await northfield();
    const exported = await call("POST", `/v1/apps/${id}/exports/export`, { token: admin });
    const file = JSON.parse((await host.deps.storage.get(`exports/${exported.body.file_name}`))!.toString());
    const edited = {
      ...file,
      controls: file.controls.map((c: { prompt_input_raw: string }) =>
        c.prompt_input_raw === "Visas" ? { ...c, prompt_input_raw: "Student visas" } : c,
      ),
    };
    await host.deps.storage.put("exports/northfield_20260102-000000-000.json", JSON.stringify(edited));
    const topics = await topicsOf(id);
    const since = await lastChangeId(id);

    const asked = (await preview("northfield_20260102-000000-000.json")).body;
    expect(asked.changes).toEqual([expect.stringMatching(/^Sensitive Topics of .+ changed$/)]);
    await importFile("northfield_20260102-000000-000.json");

    expect(await topicsOf(id)).toEqual(topics.map((t) => (t.topic === "Visas" ? { ...t, topic: "Student visas" } : t)));
    const recorded = await changesSince(id, since);
    expect(recorded.map((row) => [row.kind, row.target, row.written])).toEqual([
      ["controls", "admissions", ["sensitive_topics"]],
    ]);
    const [change] = recorded;
    expect(change.summary).toBe(`Import of northfield_20260102-000000-000.json: ${asked.changes[0]}`);
    const text = (state: unknown) => (state as { prompt_input_raw: string }[]).map((c) => c.prompt_input_raw);
    expect(text(change.after)).toEqual(text(change.before).map((t) => (t === "Visas" ? "Student visas" : t)));
  });
});
