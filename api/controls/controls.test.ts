import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUALITY_CHECK_DEFAULTS, TOPIC_ROWS } from "@contract";
import { clientApps, controls, controlTopics, users } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { HIGHER_ED_PERSONALITY } from "./defaults";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
const token: Record<"admin" | "clientAdmin" | "clientUser" | "outsider", string> = {
  admin: "",
  clientAdmin: "",
  clientUser: "",
  outsider: "",
};
let northfield: number;
let harbor: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  await host.deps.db.insert(users).values({ email: "outsider@example.com", name: "Outsider" });
  token.admin = (await signInAs(host, "admin@example.com")).user_token;
  token.clientAdmin = (await signInAs(host, "client.admin@example.com")).user_token;
  token.clientUser = (await signInAs(host, "client.user@example.com")).user_token;
  token.outsider = (await signInAs(host, "outsider@example.com")).user_token;
  const apps = await host.deps.db.select().from(clientApps);
  northfield = apps.find((a) => a.urlCode === "northfield")!.id;
  harbor = apps.find((a) => a.urlCode === "shopharbor-outfitters")!.id;
});
afterAll(() => host?.close());

const topic = (
  internal_name: "sensitive_topics" | "no_go_topics",
  text: string,
  disclaimer: string,
  extra: Record<string, unknown> = {},
) => ({ internal_name, prompt_input_raw: text, metadata: { disclaimer }, ...extra });

describe("AI personality", () => {
  it("is prefilled with the higher-ed rule set for higher_ed clients and empty for ecommerce, unsaved (id null)", async () => {
    const university = await call(
      "GET",
      `/v1/controls?app_id=${northfield}&trigger_point=admissions&types=ai_personality_guidelines`,
      { token: token.clientUser },
    );
    expect(university).toMatchObject({
      status: 200,
      body: {
        controls: [
          {
            id: null,
            internal_name: "ai_personality_guidelines",
            trigger_point: "admissions",
            prompt_input_raw: HIGHER_ED_PERSONALITY,
            display_name: "Chatbot Personality",
          },
        ],
      },
    });
    const shop = await call("GET", `/v1/controls?app_id=${harbor}&types=ai_personality_guidelines`, {
      token: token.admin,
    });
    expect(shop.body.controls).toEqual([
      expect.objectContaining({ id: null, prompt_input_raw: "", trigger_point: "" }),
    ]);
  });

  it("gives other client types the higher-ed default", async () => {
    const created = await call("POST", "/v1/apps", {
      token: token.admin,
      body: { client_name: "Untyped College", url_code: "untyped" },
    });
    expect(created.status).toBe(201);
    const body = (
      await call("GET", `/v1/controls?app_id=${created.body.id}&types=ai_personality_guidelines`, {
        token: token.admin,
      })
    ).body;
    expect(body.controls[0].prompt_input_raw).toBe(HIGHER_ED_PERSONALITY);
  });

  it("refuses metadata larger than a personality needs, saving nothing", async () => {
    const refused = await call("PUT", `/v1/controls?app_id=${northfield}`, {
      token: token.clientAdmin,
      body: {
        controls: [
          {
            internal_name: "ai_personality_guidelines",
            prompt_input_raw: "Be brief.",
            trigger_point: "studentsuccess",
            metadata: Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`k${n}`, "v".repeat(1_000)])),
          },
        ],
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      "controls.0.metadata": ["Keep the metadata to at most 20,000 characters of JSON"],
    });
    const kept = await call(
      "GET",
      `/v1/controls?app_id=${northfield}&trigger_point=studentsuccess&types=ai_personality_guidelines`,
      { token: token.clientAdmin },
    );
    expect(kept.body.controls[0].prompt_input_raw).not.toBe("Be brief.");
  });

  it("saves through PUT /v1/controls?app_id with the body's controls, idempotently, and a trigger point inherits Default until it has its own", async () => {
    const body = {
      controls: [
        {
          internal_name: "ai_personality_guidelines",
          display_name: "Chatbot Personality",
          prompt_input_raw: "Be brief and kind.",
          trigger_point: "",
          metadata: {},
        },
      ],
    };
    const first = await call("PUT", `/v1/controls?app_id=${northfield}`, { token: token.clientAdmin, body });
    expect(first).toMatchObject({
      status: 200,
      body: {
        message: "Controls saved",
        controls: [{ id: expect.any(Number), prompt_input_raw: "Be brief and kind.", app_id: northfield }],
      },
    });
    const again = await call("PUT", `/v1/controls?app_id=${northfield}`, { token: token.clientAdmin, body });
    expect(again.body.controls[0].id).toBe(first.body.controls[0].id);
    const rows = await host.deps.db
      .select()
      .from(controls)
      .where(and(eq(controls.appId, northfield), eq(controls.internalName, "ai_personality_guidelines")));
    expect(rows).toHaveLength(1);

    const inherited = await call(
      "GET",
      `/v1/controls?app_id=${northfield}&trigger_point=studentsuccess&types=ai_personality_guidelines`,
      { token: token.clientUser },
    );
    expect(inherited.body.controls[0]).toMatchObject({
      id: null,
      trigger_point: "studentsuccess",
      prompt_input_raw: "Be brief and kind.",
    });

    const own = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [
          {
            app_id: northfield,
            internal_name: "ai_personality_guidelines",
            prompt_input_raw: "Encourage returning students.",
            trigger_point: "studentsuccess",
          },
        ],
      },
    });
    expect(own.body.controls[0]).toMatchObject({
      id: expect.any(Number),
      trigger_point: "studentsuccess",
      prompt_input_raw: "Encourage returning students.",
    });
    const updated = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [
          {
            id: own.body.controls[0].id,
            internal_name: "ai_personality_guidelines",
            prompt_input_raw: "Encourage returning adults.",
            trigger_point: "studentsuccess",
          },
        ],
      },
    });
    expect(updated.body.controls[0]).toMatchObject({
      id: own.body.controls[0].id,
      prompt_input_raw: "Encourage returning adults.",
    });
  });

  it("does not store an empty personality that was never saved (saves only non-empty or changed)", async () => {
    const saved = await call("PUT", `/v1/controls?app_id=${harbor}`, {
      token: token.admin,
      body: {
        controls: [{ internal_name: "ai_personality_guidelines", prompt_input_raw: "  ", trigger_point: "shop" }],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.controls).toEqual([expect.objectContaining({ id: null, prompt_input_raw: "" })]);
    expect(await host.deps.db.select().from(controls).where(eq(controls.appId, harbor))).toEqual([]);
  });
});

describe("round trip", () => {
  it("takes the GET answer back as the PUT body, unsaved values (id null) included", async () => {
    const shown = await call(
      "GET",
      `/v1/controls?app_id=${harbor}&trigger_point=shop&types=ai_personality_guidelines,quality_check`,
      { token: token.admin },
    );
    const edited = shown.body.controls.map((c: { internal_name: string }) =>
      c.internal_name === "ai_personality_guidelines" ? { ...c, prompt_input_raw: "Friendly outdoor expert." } : c,
    );
    const saved = await call("PUT", "/v1/controls", { token: token.admin, body: { app_id: harbor, controls: edited } });
    expect(saved.status).toBe(200);
    expect(saved.body.controls).toEqual([
      expect.objectContaining({
        id: expect.any(Number),
        internal_name: "ai_personality_guidelines",
        prompt_input_raw: "Friendly outdoor expert.",
      }),
      expect.objectContaining({
        id: expect.any(Number),
        internal_name: "quality_check",
        metadata: QUALITY_CHECK_DEFAULTS,
      }),
    ]);
    await host.deps.db.delete(controls).where(eq(controls.appId, harbor));
  });
});

describe("sensitive and no-go topics", () => {
  it("saves topic rows with their disclaimer text or canned response, ignores blank rows and answers the saved list", async () => {
    const rows = [
      topic(
        "sensitive_topics",
        "Financial aid",
        "Amounts depend on your FAFSA; confirm with the financial aid office.",
      ),
      topic("sensitive_topics", "", ""),
      topic("no_go_topics", "Legal advice", "I can't give legal advice; please contact a lawyer."),
      ...Array.from({ length: 5 }, () => topic("no_go_topics", "", "")),
    ];
    const saved = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: { app_id: northfield, controls: rows.map((r) => ({ ...r, trigger_point: "admissions" })) },
    });
    expect(saved.status).toBe(200);
    expect(
      saved.body.controls.map((c: { internal_name: string; prompt_input_raw: string; metadata: unknown }) => [
        c.internal_name,
        c.prompt_input_raw,
        c.metadata,
      ]),
    ).toEqual([
      [
        "sensitive_topics",
        "Financial aid",
        { disclaimer: "Amounts depend on your FAFSA; confirm with the financial aid office." },
      ],
      ["no_go_topics", "Legal advice", { disclaimer: "I can't give legal advice; please contact a lawyer." }],
    ]);
    const listed = await call(
      "GET",
      `/v1/controls?app_id=${northfield}&trigger_point=admissions&types=sensitive_topics,no_go_topics`,
      { token: token.clientUser },
    );
    expect(listed.body.controls).toEqual(saved.body.controls);
    // Another trigger point has its own lists.
    const other = await call(
      "GET",
      `/v1/controls?app_id=${northfield}&trigger_point=studentsuccess&types=sensitive_topics,no_go_topics`,
      { token: token.clientUser },
    );
    expect(other.body.controls).toEqual([]);
  });

  it("is idempotent: the same new topic saved again updates the row (any case), and a cleared saved row is removed", async () => {
    const again = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [
          {
            ...topic("sensitive_topics", "financial AID", "Confirm amounts with the office."),
            trigger_point: "admissions",
          },
        ],
      },
    });
    expect(again.status).toBe(200);
    const stored = await host.deps.db
      .select()
      .from(controlTopics)
      .where(and(eq(controlTopics.appId, northfield), eq(controlTopics.internalName, "sensitive_topics")));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      promptInputRaw: "financial AID",
      metadata: { disclaimer: "Confirm amounts with the office." },
    });

    const cleared = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [{ ...topic("sensitive_topics", "", ""), id: stored[0].id, trigger_point: "admissions" }],
      },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.controls).toEqual([]);
  });

  it("keeps topic ids apart from personality ids (one id space on the wire)", async () => {
    const saved = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [
          {
            ...topic("sensitive_topics", "Visas", "Visa rules change; check with the international office."),
            trigger_point: "",
          },
        ],
      },
    });
    const all = await call("GET", `/v1/controls?app_id=${northfield}`, { token: token.clientAdmin });
    const ids = all.body.controls.map((c: { id: number | null }) => c.id).filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(saved.body.controls[0].id);
    // Every type in the spec's order; Default has no no-go topics yet.
    expect(all.body.controls.map((c: { internal_name: string }) => c.internal_name)).toEqual([
      "ai_personality_guidelines",
      "sensitive_topics",
      "quality_check",
    ]);
  });

  it("refuses half rows, duplicates, unknown trigger points, foreign ids and a ninth topic, saving nothing", async () => {
    const before = await host.deps.db.select().from(controlTopics).orderBy(asc(controlTopics.id));
    const bad = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [
          topic("sensitive_topics", "Housing", ""),
          topic("no_go_topics", "", "No comment."),
          topic("no_go_topics", "Politics", "I stay neutral.", { trigger_point: "nowhere" }),
          topic("no_go_topics", "Religion", "I stay neutral."),
          topic("no_go_topics", "religion", "I stay neutral."),
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      "controls.0.metadata.disclaimer": ["Enter the disclaimer text for this topic"],
      "controls.1.prompt_input_raw": ["Enter the topic this canned response is for"],
    });
    const semantic = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [
          topic("no_go_topics", "Politics", "I stay neutral.", { trigger_point: "nowhere" }),
          topic("no_go_topics", "Religion", "I stay neutral."),
          topic("no_go_topics", "religion", "I stay neutral."),
        ],
      },
    });
    expect(semantic).toMatchObject({
      status: 400,
      body: {
        message: "Invalid request body",
        errors: {
          "controls.0.trigger_point": [
            `"nowhere" is not a trigger point of this client; choose Default, one of its trigger points or an agent's site code`,
          ],
          "controls.2.prompt_input_raw": ["This topic is listed twice"],
        },
      },
    });
    const shopTopic = await call("PUT", "/v1/controls", {
      token: token.admin,
      body: { app_id: harbor, controls: [topic("no_go_topics", "Competitors", "I only talk about our shop.")] },
    });
    const foreignId = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [topic("no_go_topics", "Competitors", "Hm.", { id: shopTopic.body.controls[0].id })],
      },
    });
    expect(foreignId.body.errors).toEqual({
      "controls.0.id": ["This control no longer exists or belongs to another trigger point; reload the page"],
    });

    const nine = Array.from({ length: TOPIC_ROWS + 1 }, (_, i) =>
      topic("sensitive_topics", `Topic ${i + 1}`, "Careful."),
    );
    const tooMany = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: { app_id: northfield, controls: nine.map((r) => ({ ...r, trigger_point: "studentsuccess" })) },
    });
    expect(tooMany).toMatchObject({
      status: 400,
      body: { errors: { controls: ["Sensitive Topics hold at most 8 topics per trigger point"] } },
    });
    const after = await host.deps.db
      .select()
      .from(controlTopics)
      .where(eq(controlTopics.appId, northfield))
      .orderBy(asc(controlTopics.id));
    expect(after).toEqual(before.filter((r) => r.appId === northfield));
  });
});

describe("quality check", () => {
  it("answers its defaults until saved, validates its fields and stores them per trigger point", async () => {
    const initial = await call(
      "GET",
      `/v1/controls?app_id=${northfield}&trigger_point=admissions&types=quality_check`,
      { token: token.clientUser },
    );
    expect(initial.body.controls).toEqual([
      {
        id: null,
        app_id: northfield,
        internal_name: "quality_check",
        display_name: "Hallucination Accuracy & Quality Check",
        prompt_input_raw: "",
        trigger_point: "admissions",
        metadata: QUALITY_CHECK_DEFAULTS,
      },
    ]);
    const invalid = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [
          {
            internal_name: "quality_check",
            trigger_point: "admissions",
            metadata: { min_retrieval_confidence: 1.5, require_source: "yes", max_sources: 0, fallback_message: " " },
          },
        ],
      },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual({
      "controls.0.metadata.min_retrieval_confidence": ["Enter a number from 0 to 1"],
      "controls.0.metadata.require_source": ["Choose yes or no"],
      "controls.0.metadata.max_sources": ["Enter a whole number from 1 to 10"],
      "controls.0.metadata.fallback_message": ["This string is required"],
    });
    const saved = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [
          {
            internal_name: "quality_check",
            trigger_point: "admissions",
            metadata: { min_retrieval_confidence: 0.6, require_source: false },
          },
        ],
      },
    });
    expect(saved.body.controls[0]).toMatchObject({
      id: expect.any(Number),
      metadata: { ...QUALITY_CHECK_DEFAULTS, min_retrieval_confidence: 0.6, require_source: false },
    });
  });
});

describe("validation and roles", () => {
  it("refuses a topic no question could raise: one of words too common to count, beside its field, saving nothing", async () => {
    const refused = await call("PUT", "/v1/controls", {
      token: token.clientAdmin,
      body: {
        app_id: northfield,
        controls: [
          topic("no_go_topics", "Tuition refunds", "Ask the bursar."),
          topic("no_go_topics", "IT", "The help desk answers questions about IT."),
          topic("sensitive_topics", "What is it about?", "Answers may change."),
        ],
      },
    });
    expect(refused.status).toBe(400);
    const message =
      "The assistant can't recognise this topic: its words are too common to tell one question from another. Name it with the words people would ask it in";
    expect(refused.body.errors).toEqual({
      "controls.1.prompt_input_raw": [message],
      "controls.2.prompt_input_raw": [message],
    });
    const listed = await call("GET", `/v1/controls?app_id=${northfield}&types=no_go_topics`, { token: token.admin });
    expect(listed.body.controls.map((c: { prompt_input_raw: string }) => c.prompt_input_raw)).not.toContain(
      "Tuition refunds",
    );
  });

  it("needs a client and a known control type, with per-field errors", async () => {
    const noApp = await call("PUT", "/v1/controls", {
      token: token.admin,
      body: { controls: [{ internal_name: "ai_personality_guidelines", prompt_input_raw: "x" }] },
    });
    expect(noApp).toEqual({
      status: 400,
      body: { message: "Invalid request body", errors: { app_id: ["Say which client this is for (app_id)"] } },
    });
    const unknown = await call("PUT", "/v1/controls", {
      token: token.admin,
      body: { app_id: northfield, controls: [{ internal_name: "jokes" }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors["controls.0.internal_name"]).toEqual([
      "internal_name must be one of ai_personality_guidelines, sensitive_topics, no_go_topics, quality_check",
    ]);
    const mismatch = await call("PUT", `/v1/controls?app_id=${northfield}`, {
      token: token.admin,
      body: { app_id: harbor, controls: [] },
    });
    expect(mismatch.body.errors).toEqual({ app_id: ["app_id of the body and of the address differ"] });
    const badTypes = await call("GET", `/v1/controls?app_id=${northfield}&types=sensitive_topics,jokes`, {
      token: token.admin,
    });
    expect(badTypes.status).toBe(400);
    expect((await call("GET", "/v1/controls", { token: token.admin })).body.errors.app_id).toBeDefined();
    expect((await call("GET", "/v1/controls?app_id=999999", { token: token.admin })).status).toBe(404);
  });

  it("lets client users read but not save, and hides other clients (404)", async () => {
    const save = { controls: [{ internal_name: "ai_personality_guidelines", prompt_input_raw: "Hello" }] };
    expect((await call("GET", `/v1/controls?app_id=${northfield}`, { token: token.clientUser })).status).toBe(200);
    expect(
      (await call("PUT", `/v1/controls?app_id=${northfield}`, { token: token.clientUser, body: save })).status,
    ).toBe(403);
    expect((await call("GET", `/v1/controls?app_id=${harbor}`, { token: token.clientAdmin })).status).toBe(404);
    expect((await call("PUT", `/v1/controls?app_id=${harbor}`, { token: token.clientAdmin, body: save })).status).toBe(
      404,
    );
    expect((await call("GET", `/v1/controls?app_id=${northfield}`, { token: token.outsider })).status).toBe(404);
    expect((await call("GET", `/v1/controls?app_id=${northfield}`)).status).toBe(401);
  });

  it("documents every call in the OpenAPI document", async () => {
    const { body } = await call("GET", "/v1/openapi.json");
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        "/v1/controls",
        "/v1/apps/{appId}/ai_probings",
        "/v1/apps/{appId}/input_prompts",
        "/v1/apps/{appId}/input_prompts/{id}",
        "/v1/controls/list_finetunings",
        "/v1/controls/upsert_finetunings",
        "/v1/controls/bulk_delete_finetunings",
      ]),
    );
    expect(Object.keys(body.paths["/v1/controls"])).toEqual(["get", "put"]);
    const row =
      body.paths["/v1/controls/upsert_finetunings"].post.requestBody.content["application/json"].schema.properties
        .finetunings.items;
    expect(Object.keys(row.properties)).toEqual(
      expect.arrayContaining(["finetuning_type", "pattern", "penalty", "metadata", "deleted"]),
    );
  });
});
