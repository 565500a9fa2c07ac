import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiProbings, inputPrompts } from "../db/schema";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let clientAdmin: string;
let clientUser: string;
let northfield: number;
let harbor: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ admin, clientAdmin, clientUser, northfield, harbor } = await demoCallers(host));
});
afterAll(() => host?.close());

describe("smart probing (ai_probings)", () => {
  it("answers one unsaved entry per type, then saves and upserts per trigger point and type", async () => {
    const empty = await call(
      "GET",
      `/v1/apps/${northfield}/ai_probings?trigger_point=admissions&types=topics,topic_to_prob_mapping`,
      { token: clientUser },
    );
    expect(empty).toEqual({
      status: 200,
      body: {
        ai_probings: [
          {
            id: null,
            app_id: northfield,
            internal_name: "topics",
            display_name: "Topics For Probing",
            prompt_input_raw: "",
            trigger_point: "admissions",
          },
          {
            id: null,
            app_id: northfield,
            internal_name: "topic_to_prob_mapping",
            display_name: "Topics to Prob Mapping",
            prompt_input_raw: "",
            trigger_point: "admissions",
          },
        ],
      },
    });
    const body = {
      app_id: northfield,
      ai_probings: [
        { internal_name: "topics", prompt_input_raw: "Intended start term\nStudy mode", trigger_point: "admissions" },
        { internal_name: "topic_to_prob_mapping", prompt_input_raw: "", trigger_point: "admissions" },
      ],
    };
    const saved = await call("PUT", `/v1/apps/${northfield}/ai_probings`, { token: clientAdmin, body });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Probing guidelines saved");
    expect(saved.body.ai_probings).toEqual([
      expect.objectContaining({
        id: expect.any(Number),
        internal_name: "topics",
        prompt_input_raw: "Intended start term\nStudy mode",
      }),
      // Empty and never saved: nothing stored.
      expect.objectContaining({ id: null, internal_name: "topic_to_prob_mapping", prompt_input_raw: "" }),
    ]);
    await call("PUT", `/v1/apps/${northfield}/ai_probings`, { token: clientAdmin, body });
    expect(await host.deps.db.select().from(aiProbings).where(eq(aiProbings.appId, northfield))).toHaveLength(1);
    const only = await call("GET", `/v1/apps/${northfield}/ai_probings?trigger_point=admissions&types=topics`, {
      token: clientUser,
    });
    expect(only.body.ai_probings).toEqual([saved.body.ai_probings[0]]);
  });

  it("validates and enforces roles", async () => {
    const bad = await call("PUT", `/v1/apps/${northfield}/ai_probings`, {
      token: clientAdmin,
      body: {
        ai_probings: [
          { internal_name: "hobbies", prompt_input_raw: "x" },
          { internal_name: "topics", prompt_input_raw: "x", trigger_point: "mars" },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      "ai_probings.0.internal_name": ["internal_name must be one of topics, topic_to_prob_mapping"],
    });
    const unknownPoint = await call("PUT", `/v1/apps/${northfield}/ai_probings`, {
      token: clientAdmin,
      body: { ai_probings: [{ internal_name: "topics", prompt_input_raw: "x", trigger_point: "mars" }] },
    });
    expect(Object.keys(unknownPoint.body.errors)).toEqual(["ai_probings.0.trigger_point"]);
    const otherClient = await call("PUT", `/v1/apps/${northfield}/ai_probings`, {
      token: clientAdmin,
      body: { app_id: harbor, ai_probings: [] },
    });
    expect(otherClient.body.errors).toEqual({ app_id: ["app_id of the body and of the address differ"] });
    expect(
      (await call("PUT", `/v1/apps/${northfield}/ai_probings`, { token: clientUser, body: { ai_probings: [] } }))
        .status,
    ).toBe(403);
    expect((await call("GET", `/v1/apps/${harbor}/ai_probings`, { token: clientUser })).status).toBe(404);
    expect(
      (
        await call("PUT", `/v1/apps/${harbor}/ai_probings`, {
          token: admin,
          body: {
            ai_probings: [{ internal_name: "topics", prompt_input_raw: "Size\nActivity", trigger_point: "shop" }],
          },
        })
      ).status,
    ).toBe(200);
  });
});

describe("input prompts", () => {
  let welcomeId: number;

  it("saves Prompt Key / Prompt rows (blank rows ignored) and lists them per trigger point", async () => {
    const body = {
      input_prompts: [
        {
          internal_name: "welcome_message",
          prompt_input_raw: "Hi! Ask me anything about applying to Northfield.",
          trigger_point: "admissions",
        },
        { internal_name: "", prompt_input_raw: "", trigger_point: "admissions" },
        {
          internal_name: "lead_capture",
          prompt_input_raw: "Ask for the visitor's email before sharing the brochure.",
          trigger_point: "admissions",
        },
      ],
    };
    const saved = await call("PUT", `/v1/apps/${northfield}/input_prompts`, { token: clientAdmin, body });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Successfully saved the input prompts.");
    expect(saved.body.input_prompts.map((p: { internal_name: string }) => p.internal_name)).toEqual([
      "welcome_message",
      "lead_capture",
    ]);
    welcomeId = saved.body.input_prompts[0].id;
    // The same body again adds nothing and replaces nothing: its keys are taken.
    const again = await call("PUT", `/v1/apps/${northfield}/input_prompts`, { token: clientAdmin, body });
    expect(again).toEqual({
      status: 400,
      body: {
        message: "Invalid request body",
        errors: {
          "input_prompts.0.internal_name": ["Another prompt of this trigger point already uses this key"],
          "input_prompts.2.internal_name": ["Another prompt of this trigger point already uses this key"],
        },
      },
    });
    expect(await host.deps.db.select().from(inputPrompts)).toHaveLength(2);

    const renamed = await call("PUT", `/v1/apps/${northfield}/input_prompts`, {
      token: clientAdmin,
      body: {
        input_prompts: [
          { id: welcomeId, internal_name: "greeting", prompt_input_raw: "Hello!", trigger_point: "admissions" },
        ],
      },
    });
    // The answer lists every prompt of the trigger points saved.
    expect(renamed.body.input_prompts).toEqual([
      expect.objectContaining({ id: welcomeId, internal_name: "greeting", prompt_input_raw: "Hello!" }),
      expect.objectContaining({ internal_name: "lead_capture" }),
    ]);
    const listed = await call("GET", `/v1/apps/${northfield}/input_prompts?trigger_point=admissions`, {
      token: clientUser,
    });
    expect(listed.body.input_prompts.map((p: { internal_name: string }) => p.internal_name)).toEqual([
      "greeting",
      "lead_capture",
    ]);
    expect(
      (await call("GET", `/v1/apps/${northfield}/input_prompts`, { token: clientUser })).body.input_prompts,
    ).toEqual([]);
  });

  it("requires both fields, a usable key and no duplicates; saves nothing on error", async () => {
    const bad = await call("PUT", `/v1/apps/${northfield}/input_prompts`, {
      token: clientAdmin,
      body: {
        input_prompts: [
          { internal_name: "orphan_key", prompt_input_raw: "   " },
          { internal_name: "", prompt_input_raw: "A prompt without a key" },
          { internal_name: "has space", prompt_input_raw: "x" },
        ],
      },
    });
    expect(bad).toEqual({
      status: 400,
      body: {
        message: "Invalid request body",
        errors: {
          "input_prompts.0.prompt_input_raw": ["This string is required"],
          "input_prompts.1.internal_name": ["This string is required"],
          "input_prompts.2.internal_name": ["Use letters, digits, '_', '.' and '-' only, without spaces"],
        },
      },
    });
    const duplicate = await call("PUT", `/v1/apps/${northfield}/input_prompts`, {
      token: clientAdmin,
      body: {
        input_prompts: [
          { internal_name: "faq", prompt_input_raw: "One" },
          { internal_name: "faq", prompt_input_raw: "Two" },
        ],
      },
    });
    expect(duplicate.body.errors).toEqual({ "input_prompts.1.internal_name": ["This prompt key is listed twice"] });
    const clash = await call("PUT", `/v1/apps/${northfield}/input_prompts`, {
      token: clientAdmin,
      body: {
        input_prompts: [
          { internal_name: "new_one", prompt_input_raw: "New" },
          { id: welcomeId, internal_name: "lead_capture", prompt_input_raw: "Clash", trigger_point: "admissions" },
        ],
      },
    });
    expect(clash.body.errors).toEqual({
      "input_prompts.1.internal_name": ["Another prompt of this trigger point already uses this key"],
    });
    expect((await host.deps.db.select().from(inputPrompts)).map((p) => p.internalName).sort()).toEqual([
      "greeting",
      "lead_capture",
    ]);
  });

  it("refuses a new row whose key is saved under its trigger point, on that row's key, saving nothing", async () => {
    type Listed = { id: number; internal_name: string; prompt_input_raw: string };
    const put = (input_prompts: object[]) =>
      call("PUT", `/v1/apps/${northfield}/input_prompts`, { token: clientAdmin, body: { input_prompts } });
    const listed = async (triggerPoint: string) =>
      (await call("GET", `/v1/apps/${northfield}/input_prompts?trigger_point=${triggerPoint}`, { token: clientUser }))
        .body.input_prompts as Listed[];
    const first = await put([
      { internal_name: "welcome_msg", prompt_input_raw: "Welcome to admissions.", trigger_point: "admissions" },
    ]);
    expect(first.status).toBe(200);
    const before = await listed("admissions");

    const added = await put([
      { internal_name: "fresh_key", prompt_input_raw: "Fine on its own.", trigger_point: "admissions" },
      { internal_name: "welcome_msg", prompt_input_raw: "Replaced?", trigger_point: "admissions" },
    ]);
    expect(added).toEqual({
      status: 400,
      body: {
        message: "Invalid request body",
        errors: { "input_prompts.1.internal_name": ["Another prompt of this trigger point already uses this key"] },
      },
    });
    expect(await listed("admissions")).toEqual(before);

    // Two new rows with one key in one save: the later one is refused.
    const twice = await put([
      { internal_name: "twin_key", prompt_input_raw: "One", trigger_point: "admissions" },
      { internal_name: "twin_key", prompt_input_raw: "Two", trigger_point: "admissions" },
    ]);
    expect(twice.body.errors).toEqual({ "input_prompts.1.internal_name": ["This prompt key is listed twice"] });
    expect(await listed("admissions")).toEqual(before);

    // A key is one key in any case: saved, or twice in one save.
    const otherCase = await put([
      { internal_name: "Welcome_Msg", prompt_input_raw: "Replaced?", trigger_point: "admissions" },
    ]);
    expect(otherCase.body.errors).toEqual({
      "input_prompts.0.internal_name": ["Another prompt of this trigger point already uses this key"],
    });
    const twiceInCase = await put([
      { internal_name: "tone", prompt_input_raw: "One", trigger_point: "admissions" },
      { internal_name: "TONE", prompt_input_raw: "Two", trigger_point: "admissions" },
    ]);
    expect(twiceInCase.body.errors).toEqual({ "input_prompts.1.internal_name": ["This prompt key is listed twice"] });
    expect(await listed("admissions")).toEqual(before);
    // A prompt may still change the case of its own key.
    const own = before.find((p) => p.internal_name === "welcome_msg")!;
    const recased = await put([
      { id: own.id, internal_name: "Welcome_msg", prompt_input_raw: own.prompt_input_raw, trigger_point: "admissions" },
    ]);
    expect(recased.status).toBe(200);
    await put([
      { id: own.id, internal_name: "welcome_msg", prompt_input_raw: own.prompt_input_raw, trigger_point: "admissions" },
    ]);

    // The same key under another trigger point is another prompt.
    const elsewhere = await put([{ internal_name: "welcome_msg", prompt_input_raw: "Welcome, everyone." }]);
    expect(elsewhere.status).toBe(200);
    expect((await listed("admissions")).find((p) => p.internal_name === "welcome_msg")?.prompt_input_raw).toBe(
      "Welcome to admissions.",
    );

    // A key a saved prompt gives up in the same save is free for a new row, whatever the rows' order.
    const welcome = before.find((p) => p.internal_name === "welcome_msg")!;
    const handedOver = await put([
      { internal_name: "welcome_msg", prompt_input_raw: "A new welcome.", trigger_point: "admissions" },
      {
        id: welcome.id,
        internal_name: "welcome_old",
        prompt_input_raw: welcome.prompt_input_raw,
        trigger_point: "admissions",
      },
    ]);
    expect(handedOver.status).toBe(200);
    const after = await listed("admissions");
    expect(after.find((p) => p.id === welcome.id)).toMatchObject({
      internal_name: "welcome_old",
      prompt_input_raw: "Welcome to admissions.",
    });
    expect(after.find((p) => p.internal_name === "welcome_msg")).toMatchObject({ prompt_input_raw: "A new welcome." });
    expect(after.find((p) => p.internal_name === "welcome_msg")?.id).not.toBe(welcome.id);
  });

  it("lets two saved prompts trade keys in one save", async () => {
    type Listed = { id: number; internal_name: string; prompt_input_raw: string };
    const put = (input_prompts: object[]) =>
      call("PUT", `/v1/apps/${northfield}/input_prompts`, { token: clientAdmin, body: { input_prompts } });
    const first = await put([
      { internal_name: "trade_one", prompt_input_raw: "First text", trigger_point: "studentsuccess" },
      { internal_name: "trade_two", prompt_input_raw: "Second text", trigger_point: "studentsuccess" },
    ]);
    const [one, two] = ["trade_one", "trade_two"].map((key) =>
      (first.body.input_prompts as Listed[]).find((p) => p.internal_name === key)!,
    );
    const traded = await put([
      {
        id: one.id,
        internal_name: "trade_two",
        prompt_input_raw: one.prompt_input_raw,
        trigger_point: "studentsuccess",
      },
      {
        id: two.id,
        internal_name: "trade_one",
        prompt_input_raw: two.prompt_input_raw,
        trigger_point: "studentsuccess",
      },
    ]);
    expect(traded.status).toBe(200);
    expect(
      (traded.body.input_prompts as Listed[])
        .filter((p) => p.id === one.id || p.id === two.id)
        .map((p) => [p.id, p.internal_name]),
    ).toEqual([
      [one.id, "trade_two"],
      [two.id, "trade_one"],
    ]);
  });

  it("deletes one prompt; client users and other clients may not", async () => {
    expect(
      (await call("DELETE", `/v1/apps/${northfield}/input_prompts/${welcomeId}`, { token: clientUser })).status,
    ).toBe(403);
    expect((await call("DELETE", `/v1/apps/${harbor}/input_prompts/${welcomeId}`, { token: clientAdmin })).status).toBe(
      404,
    );
    expect((await call("DELETE", `/v1/apps/${harbor}/input_prompts/${welcomeId}`, { token: admin })).status).toBe(404);
    expect(await call("DELETE", `/v1/apps/${northfield}/input_prompts/${welcomeId}`, { token: clientAdmin })).toEqual({
      status: 200,
      body: { message: "Deleted the prompt greeting" },
    });
    expect(
      (await call("DELETE", `/v1/apps/${northfield}/input_prompts/${welcomeId}`, { token: clientAdmin })).status,
    ).toBe(404);
    expect(
      (await call("PUT", `/v1/apps/${northfield}/input_prompts`, { token: clientUser, body: { input_prompts: [] } }))
        .status,
    ).toBe(403);
    expect((await call("GET", `/v1/apps/${harbor}/input_prompts`, { token: clientAdmin })).status).toBe(404);
  });
});
