import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANGE_KINDS, MAX_CHANGE_LINES, type ChangeLine } from "@contract";
import { clientApps, configChanges } from "../db/schema";
import { makePdf } from "../../tests/support/pdf";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { uploadPdf } from "../../tests/support/uploads";

/**
 * The readable lines GET …/history answers for every recorded kind: list items matched by what
 * they are (a topic by its text, a rule by its pattern, a field by its name), named as the screens
 * name them, a trigger point by its agent's name; never an id, a stored name or a metadata path.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  admin = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(() => host?.close());

interface Entry {
  id: number;
  kind: string;
  summary: string;
  changes: ChangeLine[];
}
const latest = async (kind: string) => {
  const { status, body } = await call("GET", `/v1/apps/${appId}/history?kind=${kind}`, { token: admin });
  expect(status).toBe(200);
  return (body.data as Entry[])[0];
};
const texts = (entry: Entry) => entry.changes.map((line) => line.text);
const linesOf = async (kind: string) => texts(await latest(kind));
const ok = async (response: Promise<{ status: number; body: { message?: string } }>) => {
  const { status, body } = await response;
  expect(status, body.message).toBe(200);
};
const post = (path: string, body: object) => call("POST", path, { token: admin, body });

const saveControls = (triggerPoint: string, controls: object[]) =>
  ok(
    call("PUT", "/v1/controls", {
      token: admin,
      body: { app_id: appId, controls: controls.map((c) => ({ trigger_point: triggerPoint, ...c })) },
    }),
  );
const noGo = (topic: string, reply: string) => ({
  internal_name: "no_go_topics",
  prompt_input_raw: topic,
  metadata: { disclaimer: reply },
});
const personality = (text: string) => ({ internal_name: "ai_personality_guidelines", prompt_input_raw: text });

describe("controls", () => {
  it("reads one No-Go topic saved as that topic added, under the agent's name, whatever the list held before", async () => {
    await saveControls("admissions", [noGo("tuition refunds", "Please ask the bursar.")]);
    await saveControls("admissions", [noGo("parking permits", "Please ask campus security.")]);
    expect((await latest("controls")).changes).toEqual([
      {
        text: "No-Go Topics of Admissions Assistant: added 'parking permits' (Canned Response: 'Please ask campus security.')",
      },
    ]);
  });

  it("reads a topic whose text stayed as changed, one removed as removed, on Default", async () => {
    await saveControls("", [noGo("rival colleges", "I can only speak about Northfield.")]);
    const listed = await call("GET", `/v1/controls?app_id=${appId}&trigger_point=&types=no_go_topics`, {
      token: admin,
    });
    const id = listed.body.controls[0].id;
    await saveControls("", [{ ...noGo("rival colleges", "Let's talk about Northfield."), id }]);
    expect(await linesOf("controls")).toEqual([
      "No-Go Topics of Default: changed 'rival colleges': " +
        "Canned Response 'I can only speak about Northfield.' → 'Let's talk about Northfield.'",
    ]);
    await saveControls("", [{ ...noGo("", ""), id }]);
    expect(await linesOf("controls")).toEqual([
      "No-Go Topics of Default: removed 'rival colleges' (Canned Response: 'Let's talk about Northfield.')",
    ]);
  });

  it("reads the Quality Check by its fields' labels and a long personality by the lines that differ", async () => {
    const check = { min_retrieval_confidence: 0.5, require_source: false, max_sources: 3 };
    await saveControls("studentsuccess", [{ internal_name: "quality_check", metadata: check }]);
    expect(await linesOf("controls")).toEqual([
      "Hallucination Accuracy & Quality Check of Student Success: Minimum Retrieval Confidence 0.04 → 0.5",
      "Hallucination Accuracy & Quality Check of Student Success: Require A Source For Every Answer Yes → No",
    ]);

    const text = (middle: string) => ["Be warm.", "Answer in short sentences.", middle, "Never guess fees."].join("\n");
    await saveControls("studentsuccess", [personality(text("Cite the catalogue."))]);
    await saveControls("studentsuccess", [personality(text("Cite the catalogue and the handbook."))]);
    expect((await latest("controls")).changes).toEqual([
      {
        text: "AI Personality of Student Success: Chatbot Personality changed",
        before: "…\nCite the catalogue.\n…",
        after: "…\nCite the catalogue and the handbook.\n…",
      },
    ]);
  });

  it("reads smart probing by the texts' labels", async () => {
    await ok(
      call("PUT", `/v1/apps/${appId}/ai_probings`, {
        token: admin,
        body: {
          app_id: appId,
          ai_probings: [{ internal_name: "topics", prompt_input_raw: "Start term", trigger_point: "admissions" }],
        },
      }),
    );
    expect(await linesOf("smart_probing")).toEqual([
      "User Probing Guidelines of Admissions Assistant: Topics For Probing (empty) → 'Start term'",
    ]);
  });
});

describe("tuning and settings", () => {
  it("reads finetuning rules by table, pattern and site, a penalty changed in place", async () => {
    const upsert = (rows: object[]) => post("/v1/controls/upsert_finetunings", { app_id: appId, finetunings: rows });
    const saved = await upsert([
      { trigger_point: "", finetuning_type: "url_pattern", pattern: "/news/", penalty: 0.5 },
      { trigger_point: "admissions", finetuning_type: "pdf_weightage", pattern: "brochure", penalty: 0.3 },
      { trigger_point: "", finetuning_type: "html_tags_to_remove", metadata: { tags: ["footer"] } },
    ]);
    expect(saved.status).toBe(200);
    expect(await linesOf("finetuning")).toEqual([
      "AI Finetuning, URL Pattern Based Weightage: added '/news/' (Site: Default, Penalty: 0.5)",
      "AI Finetuning, Page HTML/PDF Based Weightage: added 'brochure' (Site: Admissions Assistant, Type: PDF, Penalty: 0.3)",
      'AI Finetuning, Clean up HTML Tags: added \'{"tags":["footer"]}\' (Site: Default)',
    ]);
    const news = saved.body.finetunings.find((rule: { pattern: string }) => rule.pattern === "/news/");
    expect((await upsert([{ ...news, penalty: 0.9 }])).status).toBe(200);
    expect(await linesOf("finetuning")).toEqual([
      "AI Finetuning, URL Pattern Based Weightage: changed '/news/' (Site: Default): Penalty 0.5 → 0.9",
    ]);
  });

  it("reads input prompts by key, a long prompt shown under its line", async () => {
    const long = `Greet the visitor by name. ${"Keep it short. ".repeat(10)}`.trim();
    await ok(
      call("PUT", `/v1/apps/${appId}/input_prompts`, {
        token: admin,
        body: {
          input_prompts: [
            { internal_name: "welcome", prompt_input_raw: "Say hello." },
            { internal_name: "greeting", prompt_input_raw: long },
          ],
        },
      }),
    );
    expect((await latest("input_prompts")).changes).toEqual([
      { text: "Input Prompts of Default: added 'welcome' (Prompt: 'Say hello.')" },
      { text: "Input Prompts of Default: added 'greeting' (Prompt: below)", after: long },
    ]);
  });

  it("reads appearance by the screen's labels and values, and data model fields by name", async () => {
    const value = { primary_color: "#0a7d4f", position: "bottom-left", show_sources: false, font_size: 16 };
    await ok(
      call("PUT", `/v1/appearances?appId=${appId}&triggerPoint=admissions`, {
        token: admin,
        body: { appearance: { value } },
      }),
    );
    expect(await linesOf("appearance")).toEqual([
      "Appearance of Admissions Assistant (stage): Primary Colour '#1f4b99' → '#0a7d4f'",
      "Appearance of Admissions Assistant (stage): Font Size 15 px → 16 px",
      "Appearance of Admissions Assistant (stage): Position 'Bottom right' → 'Bottom left'",
      "Appearance of Admissions Assistant (stage): Show Sources Under Answers On → Off",
    ]);

    const save = (fields: object[]) =>
      post(`/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
        personalisation_config_details: fields,
      });
    const startTerm = { name: "start_term", field_type: "text", group: "Academic Profile", model_type: "user_profile" };
    const saved = await save([{ ...startTerm, definition: "When they hope to begin" }]);
    expect(await linesOf("data_model")).toEqual([
      "User Profile Data Model: added 'start_term' (Group: 'Academic Profile', Type: 'text', Definition: 'When they hope to begin')",
    ]);
    const field = saved.body.personalisation_config_details.find((f: { name: string }) => f.name === "start_term");
    await ok(save([{ ...field, field_type: "array" }]));
    expect(await linesOf("data_model")).toEqual([
      "User Profile Data Model: changed 'start_term': Type 'text' → 'array'",
    ]);
  });

  it("counts past the cap: a data model saved whole lists its first lines and how many more", async () => {
    const rows = Array.from({ length: MAX_CHANGE_LINES + 5 }, (_, i) => ({
      name: `extra_${i}`,
      field_type: "text",
      group: "Others",
      model_type: "program_profile",
    }));
    await ok(
      post(`/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
        personalisation_config_details: rows,
      }),
    );
    const lines = await linesOf("data_model");
    expect(lines).toHaveLength(MAX_CHANGE_LINES);
    expect(lines[0]).toMatch(/^Program Profile Data Model: added 'extra_0'/);
    expect(lines.at(-1)).toBe(`… and ${rows.length - (MAX_CHANGE_LINES - 1)} more`);
  });
});

describe("the client's own things", () => {
  it("reads integrations by system and environment, a secret replaced without its value", async () => {
    const settings = { instance_url: "https://northfield.my.salesforce.com", client_id: "3MVG9-consumer-key" };
    const save = (secret: string) =>
      post(`/v1/apps/${appId}/integrations/upsert`, {
        integrations: [
          {
            external_system: "salesforce",
            usecase: "lead_sync",
            settings_json: { ...settings, client_secret: secret },
          },
        ],
      });
    await ok(save("sk-live-first-secret-1234"));
    expect(await linesOf("integration")).toEqual([
      // In the drawer's order, whatever order the database keeps the settings in.
      "Integrations: added 'Salesforce' (Environment: staging, Use Case: Send captured leads, Name: 'Salesforce', " +
        "Instance URL: 'https://northfield.my.salesforce.com', Consumer Key: a secret (not recorded), " +
        "Consumer Secret: a secret (not recorded))",
    ]);
    await ok(save("sk-live-second-secret-5678"));
    expect(await linesOf("integration")).toEqual([
      "Integrations: changed 'Salesforce' (Environment: staging, Use Case: Send captured leads): Consumer Secret replaced",
    ]);
  });

  it("reads websites, agents and access by the names on their screens", async () => {
    const saveSites = (websites: object[]) => post(`/v1/apps/${appId}/websites/create_and_update`, { websites });
    const site = await saveSites([{ app_id: appId, url: "https://www.northfield.edu/", site_map: "full_website" }]);
    expect(await linesOf("website")).toEqual([
      "Websites: added 'https://www.northfield.edu/' (Scan Mode: 'full_website', Enabled: Yes)",
    ]);
    await ok(saveSites([{ ...site.body.websites[0], tags: ["Production"] }]));
    expect(await linesOf("website")).toEqual([
      "Websites: changed 'https://www.northfield.edu/': Data Tags: added 'Production'",
    ]);

    const saveAgent = (agent: object) =>
      post(`/v1/apps/${appId}/agents/update_agents`, { app_id: appId, site_code: "library", ...agent });
    const agent = await saveAgent({ name: "Library Helper" });
    expect(await linesOf("agent")).toEqual([
      "Agents: added 'Library Helper' (Agent Type: 'Enrollment', Site Code: 'library', Status: 'Active', Mode: 'Sandbox')",
    ]);
    await ok(saveAgent({ id: agent.body.id, name: "Library Guide" }));
    expect(await linesOf("agent")).toEqual([
      "Agents: changed 'Library Guide': Name 'Library Helper' → 'Library Guide'",
    ]);
    // The form shows the logo itself and the status by its option's label, not where the image is kept.
    const logo = (digit: string) =>
      `/storage/public/agents/${appId}/${digit.repeat(8)}-0000-4000-8000-${"0".repeat(12)}.png`;
    await ok(saveAgent({ id: agent.body.id, name: "Library Guide", logo: logo("1"), status: "inactive" }));
    expect(await linesOf("agent")).toEqual([
      "Agents: changed 'Library Guide': Logo (none) → an uploaded image",
      "Agents: changed 'Library Guide': Status 'Active' → 'Inactive'",
    ]);
    await ok(saveAgent({ id: agent.body.id, name: "Library Guide", logo: logo("2") }));
    expect(await linesOf("agent")).toEqual(["Agents: changed 'Library Guide': Logo replaced"]);

    await ok(
      post(`/v1/apps/${appId}/users/upsert`, { users: [{ email: "advisor@northfield.edu", name: "Ada Advisor" }] }),
    );
    expect(await linesOf("user_access")).toEqual([
      "Access Control: added 'advisor@northfield.edu' (Name: 'Ada Advisor', Role: 'Client')",
    ]);
  });
});

describe("files, the client profile and test questions", () => {
  it("reads a file by its name on the Files screen: added with its size, its tags by their labels, removed", async () => {
    const pdf = makePdf([["Residence halls open in August."]]);
    const { id, completed } = await uploadPdf(host, admin, appId, "Housing guide.pdf", pdf);
    expect(completed.status).toBe(200);
    const size = pdf.length < 1024 ? `${pdf.length} B` : `${Math.round(pdf.length / 1024)} KB`;
    expect(await linesOf("file")).toEqual([`Files: added 'Housing guide.pdf' (Size: ${size})`]);
    const tag = (tags: string[]) =>
      ok(call("PATCH", `/v1/files/${id}`, { token: admin, body: { app_id: appId, tags } }));
    await tag(["sandbox", "production"]);
    expect(await linesOf("file")).toEqual(["Files: changed 'Housing guide.pdf': Tags: added 'Sandbox', 'Production'"]);
    await tag(["production"]);
    expect(await linesOf("file")).toEqual(["Files: changed 'Housing guide.pdf': Tags: removed 'Sandbox'"]);
    await ok(call("DELETE", `/v1/files/${id}?app_id=${appId}`, { token: admin }));
    expect(await linesOf("file")).toEqual([`Files: removed 'Housing guide.pdf' (Tags: 'Production', Size: ${size})`]);
  });

  it("reads the client profile by the form's labels, a choice by its option's label", async () => {
    const { body } = await call("GET", "/v1/apps", { token: admin });
    const { id: _, agents: __, ...profile } = body.apps.find((a: { id: number }) => a.id === appId);
    await ok(
      call("PUT", `/v1/apps/${appId}`, {
        token: admin,
        body: {
          ...profile,
          copy_market: "us_devry",
          mode_env: "production",
          trigger_points: ["admissions"],
          onboard_existing_client: false,
          insync_prod_app_id: "NF-PROD-7",
        },
      }),
    );
    expect(await linesOf("client")).toEqual([
      "Client Profile: Copy Market 'Higher Edu - Enroll' → 'Higher Edu - Engage'",
      "Client Profile: Trigger Points: removed 'studentsuccess'",
      "Client Profile: Mode 'Sandbox' → 'Production'",
      "Client Profile: InSync Prod App ID (none) → 'NF-PROD-7'",
      "Client Profile: Onboard existing client Yes → No",
    ]);
    await ok(call("PUT", `/v1/apps/${appId}`, { token: admin, body: profile }));
  });

  it("reads test questions under the agent's name, a question by its text, and counts a large import past the cap", async () => {
    const base = `/v1/apps/${appId}/test_questions`;
    const created = await post(base, {
      trigger_point: "admissions",
      question: "When are fees due?",
      expect_source: "https://www.northfield.edu/fees",
      expect_outcome: "answered",
    });
    expect(created.status).toBe(201);
    expect(await linesOf("test_questions")).toEqual([
      "Test Questions of Admissions Assistant: added 'When are fees due?' " +
        "(Expected source: 'https://www.northfield.edu/fees', Expected outcome: 'Answered')",
    ]);
    await ok(
      call("PUT", `${base}/${created.body.id}`, {
        token: admin,
        body: { trigger_point: "admissions", question: "When are tuition fees due?", expect_text: "March" },
      }),
    );
    expect(await linesOf("test_questions")).toEqual([
      "Test Questions of Admissions Assistant: changed 'When are tuition fees due?': " +
        "Question 'When are fees due?' → 'When are tuition fees due?'",
      "Test Questions of Admissions Assistant: changed 'When are tuition fees due?': " +
        "Expected source 'https://www.northfield.edu/fees' → (none)",
      "Test Questions of Admissions Assistant: changed 'When are tuition fees due?': Expected text (none) → 'March'",
      "Test Questions of Admissions Assistant: changed 'When are tuition fees due?': " +
        "Expected outcome 'Answered' → (none)",
    ]);

    const questions = Array.from({ length: MAX_CHANGE_LINES + 10 }, (_, i) => ({
      question: `Imported question ${i}?`,
      expect_outcome: "fallback",
    }));
    expect((await post(`${base}/import`, { trigger_point: "", questions })).status).toBe(201);
    const imported = await latest("test_questions");
    expect(imported.summary).toBe(`Test Questions of Default: ${questions.length} added`);
    expect(texts(imported)).toHaveLength(MAX_CHANGE_LINES);
    expect(texts(imported)[0]).toBe(
      "Test Questions of Default: added 'Imported question 0?' (Expected outcome: 'Fallback')",
    );
    expect(texts(imported).at(-1)).toBe(`… and ${questions.length - (MAX_CHANGE_LINES - 1)} more`);

    await ok(call("DELETE", `${base}/${created.body.id}`, { token: admin }));
    expect(await linesOf("test_questions")).toEqual([
      "Test Questions of Admissions Assistant: removed 'When are tuition fees due?' (Expected text: 'March')",
    ]);
  });
});

describe("every line", () => {
  it("reads URL work by the pages' addresses, and refresh days before and after", async () => {
    const base = "https://events.northfield.edu";
    const site = await post(`/v1/apps/${appId}/websites/create_and_update`, {
      websites: [{ app_id: appId, url: `${base}/`, site_map: "few_urls" }],
    });
    const websiteId = (site.body as { websites: { id: number }[] }).websites[0].id;
    await ok(post(`/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, { urls: [`${base}/calendar`] }));
    expect(await linesOf("urls")).toEqual([`${base}/calendar`]);
    const { body } = await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls`, { token: admin });
    const urlId = (body as { data: { id: number }[] }).data[0].id;
    await ok(
      call("PUT", `/v1/apps/${appId}/websites/${websiteId}/urls/${urlId}`, {
        token: admin,
        body: { url: { refresh_days: 1 } },
      }),
    );
    expect(await linesOf("urls")).toEqual(["Refresh every: '30 days' → '1 day'"]);
  });

  it("names no id, stored name or metadata path, for every change recorded above", async () => {
    const { body } = await call("GET", `/v1/apps/${appId}/history?page_size=100`, { token: admin });
    const entries = body.data as Entry[];
    expect(new Set(entries.map((e) => e.kind))).toEqual(new Set(CHANGE_KINDS));
    const stored = /\b(id|metadata|prompt_input_raw|internal_name|display_name|trigger_point)\b|›|[a-z]+_[a-z]+/;
    for (const entry of entries) {
      for (const { text } of entry.changes) {
        // Values people typed may hold underscores (a field named start_term); the words around them may not.
        expect(text.replace(/'[^']*'/g, "''"), text).not.toMatch(stored);
      }
    }
  });

  it("never breaks the list over a state it cannot read: odd stored states are listed, not an error", async () => {
    const odd = [null, "text", 5, [1, "x", null], { unexpected: { deep: true } }];
    await host.deps.db.insert(configChanges).values(
      CHANGE_KINDS.flatMap((kind) =>
        odd.map((state, i) => ({
          appId,
          userEmail: "someone@example.com",
          kind,
          target: kind === "appearance" ? "stage/" : "",
          summary: `Odd ${kind}`,
          before: state,
          after: odd[(i + 1) % odd.length],
        })),
      ),
    );
    const { status, body } = await call("GET", `/v1/apps/${appId}/history?page_size=100`, { token: admin });
    expect(status).toBe(200);
    expect((body.data as Entry[]).filter((e) => e.summary.startsWith("Odd "))).toHaveLength(
      CHANGE_KINDS.length * odd.length,
    );
  });
});
