import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TRIGGER_POINT } from "@contract";
import { clientApps } from "../db/schema";
import { ownAndInherited, repeatsOf, rowKey } from "./scope";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

/**
 * Which trigger points a client's settings may be saved under: Default, the client's own trigger
 * points and the site codes of its own agents — never another client's.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let northfield: number;
let harbor: number;

// A site code that is no client's trigger point: only the agent makes it valid.
const NEW_CODE = "evening";

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  admin = (await signInAs(host, "admin@example.com")).user_token;
  const apps = await host.deps.db.select().from(clientApps);
  northfield = apps.find((a) => a.urlCode === "northfield")!.id;
  harbor = apps.find((a) => a.urlCode === "shopharbor-outfitters")!.id;
  // Ids of the two clients must not line up with agent ids by accident of the seed alone: add
  // agents to Harbor first so Northfield's new agent has an id unlike its client's.
  await call("POST", `/v1/apps/${harbor}/agents/update_agents`, {
    token: admin,
    body: { app_id: harbor, name: "Returns", site_code: "returns" },
  });
  const created = await call("POST", `/v1/apps/${northfield}/agents/update_agents`, {
    token: admin,
    body: {
      app_id: northfield,
      name: "Evening School",
      agent_type: "enrollment",
      site_code: NEW_CODE,
      url: "https://www.northfield.edu/evening",
      status: "active",
      mode_env: "staging",
      metadata: {},
    },
  });
  expect(created.status).toBe(200);
  const [app] = await host.deps.db.select().from(clientApps).where(eq(clientApps.id, northfield));
  expect(app.triggerPoints).not.toContain(NEW_CODE);
});
afterAll(() => host?.close());

describe("a new agent's site code is a trigger point of its client", () => {
  it("saves controls under it", async () => {
    const saved = await call("PUT", `/v1/controls?app_id=${northfield}`, {
      token: admin,
      body: {
        app_id: northfield,
        controls: [
          {
            internal_name: "ai_personality_guidelines",
            display_name: "Chatbot Personality",
            prompt_input_raw: "Speak to working adults.",
            trigger_point: NEW_CODE,
            metadata: {},
            app_id: northfield,
          },
        ],
      },
    });
    expect(saved).toMatchObject({
      status: 200,
      body: { controls: [{ trigger_point: NEW_CODE, prompt_input_raw: "Speak to working adults." }] },
    });
    const read = await call(
      "GET",
      `/v1/controls?app_id=${northfield}&trigger_point=${NEW_CODE}&types=ai_personality_guidelines`,
      { token: admin },
    );
    expect(read.body.controls[0]).toMatchObject({
      trigger_point: NEW_CODE,
      prompt_input_raw: "Speak to working adults.",
    });
  });

  it("saves probing guidelines, input prompts and finetunings under it", async () => {
    const probings = await call("PUT", `/v1/apps/${northfield}/ai_probings`, {
      token: admin,
      body: {
        app_id: northfield,
        ai_probings: [{ internal_name: "topics", prompt_input_raw: "Schedules", trigger_point: NEW_CODE }],
      },
    });
    expect(probings.status).toBe(200);
    const prompts = await call("PUT", `/v1/apps/${northfield}/input_prompts`, {
      token: admin,
      body: {
        input_prompts: [
          {
            internal_name: "evening_welcome",
            prompt_input_raw: "Welcome to evening classes.",
            trigger_point: NEW_CODE,
          },
        ],
      },
    });
    expect(prompts.status).toBe(200);
    const tunings = await call("POST", "/v1/controls/upsert_finetunings", {
      token: admin,
      body: {
        finetunings: [
          {
            app_id: northfield,
            trigger_point: NEW_CODE,
            finetuning_type: "url_pattern",
            pattern: "*/archive/*",
            penalty: 0.5,
          },
        ],
      },
    });
    expect(tunings.status).toBe(200);
  });

  it("has its own appearance and embed script", async () => {
    const appearance = await call("GET", `/v1/appearances?appId=${northfield}&triggerPoint=${NEW_CODE}`, {
      token: admin,
    });
    expect(appearance.status).toBe(200);
    const script = await call("GET", `/v1/bot_installs?app_id=${northfield}&env=stage&app_name=${NEW_CODE}`, {
      token: admin,
    });
    expect(script).toMatchObject({ status: 200, body: { trigger_point: NEW_CODE } });
    expect(script.body.content).toContain(NEW_CODE);
  });

  it("answers its chat with its own settings, not Default's", async () => {
    const saved = await call("PUT", `/v1/controls?app_id=${northfield}`, {
      token: admin,
      body: {
        app_id: northfield,
        controls: [
          {
            internal_name: "no_go_topics",
            prompt_input_raw: "parking fines",
            metadata: { disclaimer: "Evening staff cannot discuss parking fines." },
            trigger_point: NEW_CODE,
          },
        ],
      },
    });
    expect(saved.status).toBe(200);
    const key = (
      await call("GET", `/v1/bot_installs?app_id=${northfield}&env=stage&app_name=${NEW_CODE}`, { token: admin })
    ).body.key;
    const ask = async (triggerPoint: string) => {
      const response = await host.api.request("/v1/chat", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key, trigger_point: triggerPoint, message: "How do I appeal parking fines?" }),
      });
      return (await response.text())
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; text?: string })
        .filter((e) => e.type === "delta")
        .map((e) => e.text)
        .join("");
    };
    expect(await ask(NEW_CODE)).toBe("Evening staff cannot discuss parking fines.");
    expect(await ask("")).not.toBe("Evening staff cannot discuss parking fines.");
  });
});

describe("another client's agent site code", () => {
  it("is refused for controls, probings, prompts, finetunings and appearance", async () => {
    const refusals = [
      await call("PUT", `/v1/controls?app_id=${harbor}`, {
        token: admin,
        body: {
          app_id: harbor,
          controls: [
            {
              internal_name: "ai_personality_guidelines",
              prompt_input_raw: "Sell tents.",
              trigger_point: "admissions",
            },
          ],
        },
      }),
      await call("PUT", `/v1/apps/${harbor}/ai_probings`, {
        token: admin,
        body: { ai_probings: [{ internal_name: "topics", prompt_input_raw: "x", trigger_point: "admissions" }] },
      }),
      await call("PUT", `/v1/apps/${harbor}/input_prompts`, {
        token: admin,
        body: { input_prompts: [{ internal_name: "k", prompt_input_raw: "x", trigger_point: "admissions" }] },
      }),
      await call("POST", "/v1/controls/upsert_finetunings", {
        token: admin,
        body: {
          finetunings: [
            { app_id: harbor, trigger_point: "admissions", finetuning_type: "url_pattern", pattern: "*", penalty: 0.5 },
          ],
        },
      }),
      await call("GET", `/v1/appearances?appId=${harbor}&triggerPoint=admissions`, { token: admin }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
  });

  it("does not make an embed script for it", async () => {
    const script = await call("GET", `/v1/bot_installs?app_id=${harbor}&env=stage&app_name=admissions`, {
      token: admin,
    });
    expect(script.body.trigger_point).toBe("");
  });
});

describe("the rows of one save", () => {
  it.each([
    { keys: ["a", "b", "c"], repeats: [] },
    { keys: ["a", "b", "a", "a"], repeats: [2, 3] },
    { keys: ["", "", "b"], repeats: [] },
  ])("repeat an earlier row's key: $keys → $repeats", ({ keys, repeats }) => {
    const rows = keys.map((key, index) => ({ key, index }));
    expect(repeatsOf(rows, (row) => row.key).map((row) => row.index)).toEqual(repeats);
  });

  it("keep a key's parts apart", () => {
    expect(rowKey("ab", "c")).not.toBe(rowKey("a", "bc"));
  });

  it("find a type's own row before the Default's it inherits", () => {
    const rows = [
      { internalName: "tone", triggerPoint: DEFAULT_TRIGGER_POINT, text: "default tone" },
      { internalName: "tone", triggerPoint: "evening", text: "evening tone" },
      { internalName: "greeting", triggerPoint: DEFAULT_TRIGGER_POINT, text: "default greeting" },
    ];
    expect(ownAndInherited(rows, "tone", "evening")).toEqual({ own: rows[1], inherited: rows[0] });
    expect(ownAndInherited(rows, "greeting", "evening")).toEqual({ own: undefined, inherited: rows[2] });
    expect(ownAndInherited(rows, "closing", "evening")).toEqual({ own: undefined, inherited: undefined });
  });
});
