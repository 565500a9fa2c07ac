import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, configChanges, testQuestions, testRuns } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

/**
 * Revert this change: POST …/history/{id}/restore with {"state": "before"} writes back the state a
 * change replaced, through the same saves as a restore, recorded as a change of its own and
 * followed by a test run where the kind's save queues one.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let viewer: string;
let appId: number;
let otherAppId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  admin = (await signInAs(host, "client.admin@example.com")).user_token;
  viewer = (await signInAs(host, "client.user@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  [{ id: otherAppId }] = await host.deps.db
    .insert(clientApps)
    .values({ clientName: "Elsewhere", urlCode: "elsewhere-revert" })
    .returning();
});
afterAll(() => host?.close());

interface Entry {
  id: number;
  kind: string;
  summary: string;
  changes: { text: string }[];
}
const get = async (path: string) => (await call("GET", path, { token: admin })).body;
const latest = async (kind: string) => (await get(`/v1/apps/${appId}/history?kind=${kind}`)).data[0] as Entry;
const linesOf = async (kind: string) => (await latest(kind)).changes.map((line) => line.text);
const revert = (id: number, token = admin, app = appId) =>
  call("POST", `/v1/apps/${app}/history/${id}/restore`, { token, body: { state: "before" } });
/** Saves Default's stage appearance with this primary colour. */
const paint = (color: string) =>
  call("PUT", `/v1/appearances?appId=${appId}&triggerPoint=`, {
    token: admin,
    body: { appearance: { value: { primary_color: color } } },
  });
const stageRuns = async () =>
  // Ordered by id: Postgres returns rows in no set order once some have been updated.
  (await host.deps.db.select().from(testRuns).where(eq(testRuns.appId, appId)).orderBy(asc(testRuns.id))).filter(
    (run) => run.environment === "stage",
  );
const runsDone = () => host.deps.db.update(testRuns).set({ status: "done" }).where(eq(testRuns.appId, appId));
const addTestQuestion = (triggerPoint: string) =>
  host.deps.db
    .insert(testQuestions)
    .values({ appId, triggerPoint, question: "Where do I start?", expectOutcome: "answered" });

const noGoTopics = async (triggerPoint: string) =>
  (await get(`/v1/controls?app_id=${appId}&trigger_point=${triggerPoint}&types=no_go_topics`)).controls.map(
    (c: { prompt_input_raw: string }) => c.prompt_input_raw,
  );
const saveNoGo = (triggerPoint: string, topic: string, reply: string) =>
  call("PUT", "/v1/controls", {
    token: admin,
    body: {
      app_id: appId,
      controls: [
        {
          internal_name: "no_go_topics",
          prompt_input_raw: topic,
          metadata: { disclaimer: reply },
          trigger_point: triggerPoint,
        },
      ],
    },
  });

describe("reverting a change", () => {
  it("takes a No-Go topic's save back: the topic goes, the revert is recorded and a test run follows", async () => {
    await addTestQuestion("admissions");
    expect((await saveNoGo("admissions", "parking permits", "Please ask campus security.")).status).toBe(200);
    const saved = await latest("controls");
    await runsDone();
    const runsBefore = (await stageRuns()).length;

    const reverted = await revert(saved.id);
    expect(reverted.status).toBe(200);
    const minute = String.raw`\d\d/\d\d/\d{4} \| \d\d:\d\d UTC`;
    expect(reverted.body.message).toMatch(
      new RegExp(`^Reverted the controls of Admissions Assistant to the state before the change of ${minute}$`),
    );
    expect(await noGoTopics("admissions")).toEqual([]);
    expect(await latest("controls")).toMatchObject({ id: reverted.body.id, summary: reverted.body.message });
    expect(await linesOf("controls")).toEqual([
      "No-Go Topics of Admissions Assistant: removed 'parking permits' (Canned Response: 'Please ask campus security.')",
    ]);
    const runs = await stageRuns();
    expect(runs.length).toBe(runsBefore + 1);
    expect(runs.at(-1)).toMatchObject({ trigger: "controls reverted", triggerPoint: "admissions", status: "queued" });

    expect((await revert(saved.id)).body).toEqual({
      id: null,
      message: "Nothing to revert: this is the current state already",
    });
    // Without a state, as before: the state the change led to.
    const restored = await call("POST", `/v1/apps/${appId}/history/${saved.id}/restore`, { token: admin });
    expect(restored.body.message).toMatch(/^Restored the controls of Admissions Assistant to the state of /);
    expect(await noGoTopics("admissions")).toEqual(["parking permits"]);
  });

  it("takes back only the controls its change touched: a personality inherited or saved since stays as it is now", async () => {
    await addTestQuestion("studentsuccess");
    expect((await saveNoGo("studentsuccess", "rival colleges", "I can only speak about Northfield.")).status).toBe(200);
    const saved = await latest("controls");
    const personality = (triggerPoint: string, text: string) =>
      call("PUT", "/v1/controls", {
        token: admin,
        body: {
          app_id: appId,
          controls: [
            { internal_name: "ai_personality_guidelines", prompt_input_raw: text, trigger_point: triggerPoint },
          ],
        },
      });
    // Default's personality changes under the agent, which has none of its own.
    expect((await personality("", "Be brief.")).status).toBe(200);
    const personalityOf = async (triggerPoint: string) =>
      (await get(`/v1/controls?app_id=${appId}&trigger_point=${triggerPoint}&types=ai_personality_guidelines`))
        .controls[0];
    expect(await personalityOf("studentsuccess")).toMatchObject({ id: null, prompt_input_raw: "Be brief." });

    expect((await revert(saved.id)).status).toBe(200);
    expect(await noGoTopics("studentsuccess")).toEqual([]);
    expect(await personalityOf("studentsuccess")).toMatchObject({ id: null, prompt_input_raw: "Be brief." });
    expect(await linesOf("controls")).toEqual([
      "No-Go Topics of Student Success: removed 'rival colleges' (Canned Response: 'I can only speak about Northfield.')",
    ]);

    // A personality the agent was given after the change stays too.
    expect((await saveNoGo("studentsuccess", "other colleges", "Ask me about Northfield.")).status).toBe(200);
    const next = await latest("controls");
    expect((await personality("studentsuccess", "Be warm.")).status).toBe(200);
    expect((await revert(next.id)).status).toBe(200);
    expect(await noGoTopics("studentsuccess")).toEqual([]);
    expect(await personalityOf("studentsuccess")).toMatchObject({ prompt_input_raw: "Be warm." });
  });

  it("takes back the first change of prompts, rules and data model fields by removing what it created", async () => {
    await addTestQuestion("");
    await call("PUT", `/v1/apps/${appId}/input_prompts`, {
      token: admin,
      body: { input_prompts: [{ internal_name: "welcome", prompt_input_raw: "Say hello." }] },
    });
    const prompts = await latest("input_prompts");
    await runsDone();
    expect((await revert(prompts.id)).status).toBe(200);
    expect((await get(`/v1/apps/${appId}/input_prompts`)).input_prompts).toEqual([]);
    expect((await stageRuns()).at(-1)).toMatchObject({ trigger: "input prompts reverted" });

    await call("POST", "/v1/controls/upsert_finetunings", {
      token: admin,
      body: {
        app_id: appId,
        finetunings: [{ trigger_point: "", finetuning_type: "url_pattern", pattern: "/news/", penalty: 0.5 }],
      },
    });
    const rules = await latest("finetuning");
    await runsDone();
    expect((await revert(rules.id)).status).toBe(200);
    expect((await get(`/v1/controls/list_finetunings?app_id=${appId}`)).finetunings).toEqual([]);
    expect((await stageRuns()).at(-1)).toMatchObject({ trigger: "finetuning reverted" });
    expect(await linesOf("finetuning")).toEqual([
      "AI Finetuning, URL Pattern Based Weightage: removed '/news/' (Site: Default, Penalty: 0.5)",
    ]);

    const base = `/v1/apps/${appId}/personalisation_config_details`;
    const fieldNames = async () =>
      (await get(`${base}?model_type=user_profile`)).personalisation_config_details.map(
        (f: { name: string }) => f.name,
      );
    const seeded = await fieldNames();
    await call("POST", `${base}/create_and_update`, {
      token: admin,
      body: {
        personalisation_config_details: [
          { name: "start_term", field_type: "text", group: "Academic Profile", model_type: "user_profile" },
        ],
      },
    });
    expect(await fieldNames()).toContain("start_term");
    expect((await revert((await latest("data_model")).id)).status).toBe(200);
    expect(await fieldNames()).toEqual(seeded);
  });

  it("puts an appearance back as it was before the change, into stage", async () => {
    await paint("#112233");
    await paint("#445566");
    expect((await revert((await latest("appearance")).id)).status).toBe(200);
    expect((await get(`/v1/appearances?appId=${appId}&triggerPoint=`)).data.primary_color).toBe("#112233");
    expect((await latest("appearance")).summary).toMatch(
      /^Reverted the appearance of Default \(stage\) to the state before the change/,
    );
  });

  it("refuses a revert asked for with fewer later changes than there are now: a colleague's save is not undone unseen", async () => {
    await paint("#0a0b0c");
    const shown = await latest("appearance");
    // Saved by someone else once the page showed the change with no later ones.
    await paint("#0d0e0f");
    const refused = await call("POST", `/v1/apps/${appId}/history/${shown.id}/restore`, {
      token: admin,
      body: { state: "before", later_changes: 0 },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "This was changed again since History was shown (1 later change now): look at it before you revert, as it would go too",
    );
    expect((await get(`/v1/appearances?appId=${appId}&triggerPoint=`)).data.primary_color).toBe("#0d0e0f");
    // Asked for again as shown now, it goes ahead.
    const reverted = await call("POST", `/v1/apps/${appId}/history/${shown.id}/restore`, {
      token: admin,
      body: { state: "before", later_changes: 1 },
    });
    expect(reverted.status).toBe(200);
  });

  it("counts, for a production appearance, the later changes to stage's appearance, which its revert writes", async () => {
    const push = (color: string) =>
      call("PUT", `/v1/appearances?appId=${appId}&triggerPoint=`, {
        token: admin,
        body: { appearance: { value: { primary_color: color } }, targetEnv: "production" },
      });
    const counts = async (id: number) => {
      const entry = (await get(`/v1/apps/${appId}/history?kind=appearance`)).data.find((e: Entry) => e.id === id);
      return { later_changes: entry.later_changes, later_changes_on_revert: entry.later_changes_on_revert };
    };
    expect((await push("#203040")).status).toBe(200);
    const pushed = (await latest("appearance")) as Entry & { before: { primary_color: string } };
    expect(pushed.summary).toMatch(/\(production\)/);
    expect(pushed.before.primary_color).not.toBe("#708090");
    // A later push changes production, which neither a revert nor a restore of this entry writes.
    expect((await push("#506070")).status).toBe(200);
    expect(await counts(pushed.id)).toEqual({ later_changes: 0, later_changes_on_revert: 0 });
    // A later save of stage is what they write over.
    await paint("#708090");
    expect(await counts(pushed.id)).toEqual({ later_changes: 1, later_changes_on_revert: 1 });
    // The list says so beside the entry: its later changes counted are stage's; a stage entry's are its own.
    const listed = (await get(`/v1/apps/${appId}/history?kind=appearance`)).data;
    expect(listed.find((e: Entry) => e.id === pushed.id).restores_into_stage).toBe(true);
    expect(listed[0].restores_into_stage).toBe(false);

    // Asked with the one stage change shown, the revert goes ahead: stage gets production's colour before the push.
    const reverted = await call("POST", `/v1/apps/${appId}/history/${pushed.id}/restore`, {
      token: admin,
      body: { state: "before", later_changes: 1 },
    });
    expect(reverted.status).toBe(200);
    expect(reverted.body.message).toMatch(/^Reverted the appearance of Default \(stage, from production's\)/);
    expect((await get(`/v1/appearances?appId=${appId}&triggerPoint=`)).data.primary_color).toBe(
      pushed.before.primary_color,
    );
    // The revert itself is a later change to stage: a restore asked with the one shown before is refused.
    const refused = await call("POST", `/v1/apps/${appId}/history/${pushed.id}/restore`, {
      token: admin,
      body: { state: "after", later_changes: 1 },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("(2 later changes now)");
  });

  it("counts, for a revert, only the later changes to the controls it writes back", async () => {
    const personality = (text: string) =>
      call("PUT", "/v1/controls", {
        token: admin,
        body: {
          app_id: appId,
          controls: [
            { internal_name: "ai_personality_guidelines", prompt_input_raw: text, trigger_point: "admissions" },
          ],
        },
      });
    const counts = async (id: number) => {
      const entry = (await get(`/v1/apps/${appId}/history?kind=controls`)).data.find((e: Entry) => e.id === id);
      return { later_changes: entry.later_changes, later_changes_on_revert: entry.later_changes_on_revert };
    };
    const topicsBefore = await noGoTopics("admissions");
    expect((await saveNoGo("admissions", "bus passes", "Ask the transit office.")).status).toBe(200);
    const noGo = await latest("controls");
    // A later change to another control: a restore writes it over, a revert of the No-Go save leaves it.
    expect((await personality("Be cheerful.")).status).toBe(200);
    const later = await latest("controls");
    expect(await counts(noGo.id)).toEqual({ later_changes: 1, later_changes_on_revert: 0 });
    expect(await counts(later.id)).toEqual({ later_changes: 0, later_changes_on_revert: 0 });
    // A later change to the No-Go topics themselves goes with the revert, and is counted for it.
    expect((await saveNoGo("admissions", "meal plans", "Ask dining services.")).status).toBe(200);
    expect(await counts(noGo.id)).toEqual({ later_changes: 2, later_changes_on_revert: 1 });

    // Asked with the one later change shown for it, the revert goes ahead and leaves the personality.
    const reverted = await call("POST", `/v1/apps/${appId}/history/${noGo.id}/restore`, {
      token: admin,
      body: { state: "before", later_changes: 1 },
    });
    expect(reverted.status).toBe(200);
    expect(await noGoTopics("admissions")).toEqual(topicsBefore);
    const personalityNow = await get(
      `/v1/controls?app_id=${appId}&trigger_point=admissions&types=ai_personality_guidelines`,
    );
    expect(personalityNow.controls[0].prompt_input_raw).toBe("Be cheerful.");
    // A restore of the same change writes every control back: all three later changes are counted for it.
    const refused = await call("POST", `/v1/apps/${appId}/history/${noGo.id}/restore`, {
      token: admin,
      body: { state: "after", later_changes: 2 },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("(3 later changes now)");
  });

  it("empties a list whose change has nothing recorded before it", async () => {
    await call("PUT", `/v1/apps/${appId}/input_prompts`, {
      token: admin,
      body: { input_prompts: [{ internal_name: "tone", prompt_input_raw: "Be formal.", trigger_point: "admissions" }] },
    });
    const admissionsPrompts = async () =>
      (await get(`/v1/apps/${appId}/input_prompts?trigger_point=admissions`)).input_prompts;
    expect(await admissionsPrompts()).toMatchObject([{ internal_name: "tone" }]);
    const [created] = await host.deps.db
      .insert(configChanges)
      .values({
        appId,
        userEmail: "someone@example.com",
        kind: "input_prompts",
        target: "admissions",
        summary: "Created before states were kept",
        before: null,
        after: [{ internal_name: "tone", prompt_input_raw: "Be formal." }],
      })
      .returning();
    expect((await revert(created.id)).status).toBe(200);
    expect(await admissionsPrompts()).toEqual([]);
  });
});

describe("what cannot be reverted", () => {
  it("refuses an unknown state, kinds without restore and a state that cannot be written, each with a 400 and a message", async () => {
    const entry = await latest("controls");
    const sideways = await call("POST", `/v1/apps/${appId}/history/${entry.id}/restore`, {
      token: admin,
      body: { state: "sideways" },
    });
    expect(sideways.status).toBe(400);
    expect(sideways.body.message).toEqual(expect.any(String));

    await call("POST", `/v1/apps/${appId}/agents/update_agents`, {
      token: admin,
      body: { app_id: appId, name: "Library Helper", site_code: "library" },
    });
    await call("PUT", `/v1/apps/${appId}/ai_probings`, {
      token: admin,
      body: { app_id: appId, ai_probings: [{ internal_name: "topics", prompt_input_raw: "Fees", trigger_point: "" }] },
    });
    for (const kind of ["agent", "smart_probing"]) {
      const refused = await revert((await latest(kind)).id);
      expect(refused).toEqual({ status: 400, body: { message: "This kind of change cannot be restored or reverted" } });
    }

    const [odd] = await host.deps.db
      .insert(configChanges)
      .values({
        appId,
        userEmail: "someone@example.com",
        kind: "appearance",
        target: "stage/",
        summary: "An appearance with nothing before it",
        before: null,
        after: {},
      })
      .returning();
    const unfit = await revert(odd.id);
    expect(unfit.status).toBe(400);
    expect(unfit.body.message).toMatch(/no longer fits/);
  });

  it("is refused to read-only users (403) and for another client's change (404)", async () => {
    const entry = await latest("controls");
    const forbidden = await revert(entry.id, viewer);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toEqual(expect.any(String));
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
    expect(await revert(foreign.id)).toEqual({ status: 404, body: { message: "Change not found" } });
    expect((await revert(foreign.id, admin, otherAppId)).status).toBe(404);
  });
});

describe("reverting a change of an agent whose site code changed since", () => {
  it("follows an agent whose site code changed: its earlier changes revert and restore under the new code", async () => {
    const agent = await call("POST", `/v1/apps/${appId}/agents/update_agents`, {
      token: admin,
      body: { app_id: appId, name: "Desk Agent", site_code: "deskbefore" },
    });
    expect(agent.status).toBe(200);
    expect((await saveNoGo("deskbefore", "rival schools", "Not here.")).status).toBe(200);
    const rule = await call("POST", "/v1/controls/upsert_finetunings", {
      token: admin,
      body: {
        app_id: appId,
        finetunings: [{ trigger_point: "deskbefore", finetuning_type: "url_pattern", pattern: "/desk/", penalty: 0.5 }],
      },
    });
    expect(rule.status).toBe(200);
    const noGoChange = await latest("controls");
    const ruleChange = await latest("finetuning");
    const renamed = await call("POST", `/v1/apps/${appId}/agents/update_agents`, {
      token: admin,
      body: { app_id: appId, id: agent.body.id, name: "Desk Agent", site_code: "deskafter" },
    });
    expect(renamed.status).toBe(200);
    expect(await noGoTopics("deskafter")).toEqual(["rival schools"]);

    // Its lines name the agent, as for any agent whose code did not change.
    const listed = (await get(`/v1/apps/${appId}/history?page_size=100`)).data as Entry[];
    const lines = (id: number) => listed.find((entry) => entry.id === id)!.changes.map((line) => line.text);
    expect(lines(noGoChange.id)).toEqual([
      "No-Go Topics of Desk Agent: added 'rival schools' (Canned Response: 'Not here.')",
    ]);
    expect(lines(ruleChange.id).join(" ")).toContain("Desk Agent");
    expect(lines(ruleChange.id).join(" ")).not.toContain("deskbefore");

    // Before: "Nothing to revert" read the old code's settings (none) while the topic stood under the new one.
    const reverted = await revert(noGoChange.id);
    expect(reverted.status).toBe(200);
    expect(reverted.body.id).toEqual(expect.any(Number));
    expect(await noGoTopics("deskafter")).toEqual([]);
    // Before: refused, the recorded controls naming a trigger point the client no longer has.
    const restored = await call("POST", `/v1/apps/${appId}/history/${noGoChange.id}/restore`, {
      token: admin,
      body: { later_changes: 1 },
    });
    expect(restored.status).toBe(200);
    expect(await noGoTopics("deskafter")).toEqual(["rival schools"]);
    expect(await noGoTopics("deskbefore")).toEqual([]);

    // A finetuning revert writes the agent's rule back under the code it has now, not the old one.
    const ruleReverted = await call("POST", `/v1/apps/${appId}/history/${ruleChange.id}/restore`, {
      token: admin,
      body: { state: "before" },
    });
    expect(ruleReverted.status).toBe(200);
    const rules = await get(`/v1/controls/list_finetunings?app_id=${appId}`);
    expect(JSON.stringify(rules)).not.toContain("/desk/");

    // The agent's own change still says what its code was.
    expect((await latest("agent")).summary).toMatch(/Desk Agent/);
    const agentChange = listed.find((entry) => entry.kind === "agent" && entry.summary.startsWith("Agent Desk Agent:"));
    expect(agentChange).toMatchObject({ before: { site_code: "deskbefore" }, after: { site_code: "deskafter" } });
  });
});
