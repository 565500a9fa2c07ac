import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { NOT_YOURS_TO_CHANGE } from "~/lib/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  testContext,
  signInToConsole,
} from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import {
  EMPTY_PERSONALITY_NOT_SAVED,
  EMPTY_PROBING_NOT_SAVED,
  NOTHING_TO_SAVE,
  qualityBaseline,
  topicsBaseline,
} from "~/lib/controls";
import * as personality from "./$appName.agent.$agentName.controls.ai-personality";
import * as noGo from "./$appName.agent.$agentName.controls.no-go-topics";
import * as quality from "./$appName.agent.$agentName.controls.quality-check";
import * as sensitive from "./$appName.agent.$agentName.controls.sensitive-topics";
import * as probing from "./$appName.agent.$agentName.knowledge-store.smart-probing";

let host: Awaited<ReturnType<typeof startTestHost>>;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host?.close();
});

interface Screen {
  loader: (args: LoaderFunctionArgs) => Promise<Response>;
  action: (args: ActionFunctionArgs) => Promise<Response>;
}

/** `/northfield/agent/admissions/…` ⇒ the route params Remix would give the module. */
function paramsOf(path: string) {
  const [, appName, agentWord, agentName] = new URL(path, "http://localhost").pathname.split("/");
  return agentWord === "agent" ? { appName, agentName } : { appName };
}

const args = (request: Request, context = testContext(host)) => ({
  request,
  context,
  params: paramsOf(new URL(request.url).pathname),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (screen: Screen, path: string, cookie: string): Promise<any> =>
  loaderJson(screen.loader, args(getRequest(path, cookie)));

const save = (screen: Screen, path: string, fields: Record<string, string>, cookie: string) =>
  settle(() => screen.action(args(formRequest(path, { intent: "save", ...fields }, cookie))));

let admin: string;
beforeAll(async () => {
  admin = await signInToConsole(host, "admin@example.com");
});

describe("AI Personality", () => {
  const PAGE = "/northfield/agent/admissions/controls/ai-personality";

  it("shows the higher-ed default until saved", async () => {
    const data = await load(personality, PAGE, admin);
    expect(data.choice).toEqual({ triggerPoint: "admissions", selectable: false, options: [] });
    expect(data.text).toMatch(/^You are the university's virtual assistant/);
    expect(data.saved).toBe(false);
  });

  it("shows empty text for an ecommerce client, whose trigger points are chosen on the page", async () => {
    const shop = await load(personality, "/shopharbor-outfitters/controls/ai-personality", admin);
    expect(shop).toMatchObject({ text: "", saved: false, error: null });
    expect(shop.choice.options.map((o: { label: string }) => o.label)).toEqual(["Default", "shop"]);
  });

  it("saves with the browser's line breaks made plain, and returns to the same address with a toast", async () => {
    const response = await save(personality, PAGE, { prompt_input_raw: "Be brief.\r\nBe kind." }, admin);
    expect(response).toHaveRedirect(PAGE);
    await expect(response).toSendToast({
      type: "success",
      description: "AI Personality saved for Admissions Assistant.",
    });
    expect(await load(personality, PAGE, admin)).toMatchObject({ text: "Be brief.\nBe kind.", saved: true });
  });

  it("does not save an empty text that was empty", async () => {
    const path = "/shopharbor-outfitters/controls/ai-personality";
    const nothing = await save(personality, path, { prompt_input_raw: "" }, admin);
    await expect(nothing).toSendToast({ type: "info", description: NOTHING_TO_SAVE });
    expect((await load(personality, path, admin)).saved).toBe(false);
  });

  it("says so, rather than saved, when a text never saved here is emptied (the API stores none)", async () => {
    const path = "/northfield/controls/ai-personality";
    const before = await load(personality, path, admin);
    expect(before).toMatchObject({ saved: false });
    expect(before.text).not.toBe("");
    const emptied = await save(personality, path, { prompt_input_raw: "" }, admin);
    await expect(emptied).toSendToast({ type: "info", description: EMPTY_PERSONALITY_NOT_SAVED });
    expect(await load(personality, path, admin)).toMatchObject({ saved: false, text: before.text });
  });

  it("keeps what was typed when the API refuses", async () => {
    const path = "/shopharbor-outfitters/controls/ai-personality";
    const long = "x".repeat(20_001);
    const refused = await save(personality, path, { prompt_input_raw: long }, admin);
    expect(refused.status).toBe(400);
    const reply = await refused.json();
    expect(reply.error.prompt_input_raw).toEqual(["Keep the personality to at most 20,000 characters"]);
    expect(reply.initialValue.prompt_input_raw).toBe(long);
  });

  it("saves at a client-level trigger point chosen with ?trigger_point= (the legacy address too)", async () => {
    const path = "/northfield/ai-finetuning/ai-personality?trigger_point=studentsuccess";
    const response = await save(personality, path, { prompt_input_raw: "Success coach voice." }, admin);
    expect(response).toHaveRedirect(path);
    expect((await load(personality, "/northfield/agent/studentsuccess/controls/ai-personality", admin)).text).toBe(
      "Success coach voice.",
    );
  });

  it("answers an unknown ?trigger_point= as not found, so a stale link neither shows nor saves the Default's", async () => {
    const path = "/northfield/controls/ai-personality?trigger_point=nope";
    const loaded = await settle(() => personality.loader(args(getRequest(path, admin))));
    expect(loaded.status).toBe(404);
    expect(await loaded.text()).toBe("This client has no such trigger point");
    // What the address holds is not echoed: a NUL byte or a long string is the same 404, not a server error.
    for (const asked of ["a%00b", "x".repeat(100_000)]) {
      const odd = await settle(() =>
        personality.loader(args(getRequest(`/northfield/controls/ai-personality?trigger_point=${asked}`, admin))),
      );
      expect(odd.status).toBe(404);
    }
    const before = (await load(personality, "/northfield/controls/ai-personality", admin)).text;
    expect((await save(personality, path, { prompt_input_raw: "Meant for another agent." }, admin)).status).toBe(404);
    expect((await load(personality, "/northfield/controls/ai-personality", admin)).text).toBe(before);
  });
});

describe("Sensitive and No-Go Topics", () => {
  const CLIENT_PAGE = "/northfield/controls/sensitive-topics?trigger_point=studentsuccess";
  const AGENT_PAGE = "/northfield/agent/studentsuccess/controls/sensitive-topics";
  const row = (i: number, topic: string, disclaimer: string, id = "") => ({
    [`rows[${i}].id`]: id,
    [`rows[${i}].topic`]: topic,
    [`rows[${i}].disclaimer`]: disclaimer,
  });

  it("lists 8 rows and saves the filled ones for the chosen trigger point", async () => {
    const empty = await load(sensitive, CLIENT_PAGE, admin);
    expect(empty.rows).toHaveLength(8);
    expect(empty.choice).toMatchObject({ triggerPoint: "studentsuccess", selectable: true });
    const response = await save(
      sensitive,
      CLIENT_PAGE,
      { ...row(0, "", ""), ...row(1, "scholarships", "Awards vary by year."), ...row(2, "", "") },
      admin,
    );
    expect(response).toHaveRedirect(CLIENT_PAGE);
    await expect(response).toSendToast({ type: "success", description: "Sensitive Topics saved for Student Success." });
    const saved = await load(sensitive, AGENT_PAGE, admin);
    expect(saved.rows[0]).toMatchObject({ topic: "scholarships", disclaimer: "Awards vary by year." });
    expect(saved.rows[0].id).toEqual(expect.any(Number));
    expect((await load(sensitive, "/northfield/controls/sensitive-topics", admin)).rows[0].topic).toBe("");
    expect((await load(noGo, AGENT_PAGE.replace("sensitive", "no-go"), admin)).rows[0].topic).toBe("");
  });

  it("puts the API's message beside the half-filled field and keeps every row typed", async () => {
    const page = "/northfield/agent/admissions/controls/no-go-topics";
    const response = await save(
      noGo,
      page,
      { ...row(0, "", ""), ...row(1, "", ""), ...row(2, "competitors", ""), ...row(3, "", "Ask our team.") },
      admin,
    );
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error["rows[2].disclaimer"]).toEqual(["Enter the canned response for this topic"]);
    expect(reply.error["rows[3].topic"]).toEqual(["Enter the topic this canned response is for"]);
    expect(reply.initialValue.rows[2]).toMatchObject({ topic: "competitors" });
    expect(reply.initialValue.rows[3]).toMatchObject({ disclaimer: "Ask our team." });
    expect((await load(noGo, page, admin)).rows[0].topic).toBe("");
  });

  it("removes a saved row posted empty, and changes the others", async () => {
    const page = "/northfield/agent/admissions/controls/sensitive-topics";
    await save(
      sensitive,
      page,
      { ...row(0, "housing", "Rooms are limited."), ...row(1, "visas", "Ask the international office.") },
      admin,
    );
    const [first, second] = (await load(sensitive, page, admin)).rows;
    const response = await save(
      sensitive,
      page,
      { ...row(0, "", "", String(first.id)), ...row(1, "visas", "Changed.", String(second.id)) },
      admin,
    );
    expect(response).toHaveRedirect();
    const rows = (await load(sensitive, page, admin)).rows;
    expect(rows[0]).toMatchObject({ id: second.id, topic: "visas", disclaimer: "Changed." });
    expect(rows[1]).toMatchObject({ id: null, topic: "" });
  });

  it("shows an agent the Default's topics it applies too, and where they are edited", async () => {
    const DEFAULT_PAGE = "/northfield/controls/no-go-topics";
    await save(noGo, DEFAULT_PAGE, { ...row(0, "politics", "I cannot discuss that.") }, admin);
    const agent = await load(noGo, "/northfield/agent/studentsuccess/controls/no-go-topics", admin);
    expect(agent.inherited).toEqual([{ topic: "politics", disclaimer: "I cannot discuss that." }]);
    expect(agent.defaultScreen).toBe(DEFAULT_PAGE);
    expect(agent.rows.every((r: { topic: string }) => r.topic !== "politics")).toBe(true);
    // The Default's own screen lists them as its rows, not again as inherited.
    expect((await load(noGo, DEFAULT_PAGE, admin)).inherited).toEqual([]);
    // A topic the agent lists itself replaces Default's there: Default's is not said to apply too.
    const AGENT_PAGE = "/northfield/agent/studentsuccess/controls/no-go-topics";
    await save(noGo, AGENT_PAGE, { ...row(0, "Politics", "Student success stays out of politics.") }, admin);
    expect((await load(noGo, AGENT_PAGE, admin)).inherited).toEqual([]);
    const [own] = (await load(noGo, AGENT_PAGE, admin)).rows;
    await save(noGo, AGENT_PAGE, { ...row(0, "", "", String(own.id)) }, admin);
    const [saved] = (await load(noGo, DEFAULT_PAGE, admin)).rows;
    await save(noGo, DEFAULT_PAGE, { ...row(0, "", "", String(saved.id)) }, admin);
  });

  it("keeps what another tab saved since this page loaded, row by row, and flags a field both changed", async () => {
    const page = "/northfield/agent/admissions/controls/no-go-topics";
    await save(noGo, page, { ...row(0, "fees", "See the fees page.") }, admin);
    const loadedRows = (await load(noGo, page, admin)).rows;
    const [fees] = loadedRows;
    const loaded = JSON.stringify(topicsBaseline(loadedRows));
    const post = (topic: string, disclaimer: string) =>
      save(noGo, page, { ...row(0, topic, disclaimer, String(fees.id)), loaded }, admin);
    // Tab A changes the canned response; tab B, loaded before, changes only the topic.
    await post("fees", "Ask the bursar.");
    expect(await post("tuition fees", "See the fees page.")).toHaveRedirect(page);
    expect((await load(noGo, page, admin)).rows[0]).toMatchObject({
      topic: "tuition fees",
      disclaimer: "Ask the bursar.",
    });
    // Both change the canned response, differently: refused beside it, what was typed kept.
    const clash = await post("fees", "Email us.");
    expect(clash.status).toBe(409);
    const reply = await clash.json();
    expect(reply.error["rows[0].disclaimer"]).toEqual([
      "Changed to “Ask the bursar.” since you opened this page; save again to keep yours",
    ]);
    expect(reply.initialValue.rows[0]).toMatchObject({ topic: "fees", disclaimer: "Email us." });
    expect((await load(noGo, page, admin)).rows[0]).toMatchObject({ disclaimer: "Ask the bursar." });
    await save(noGo, page, { ...row(0, "", "", String(fees.id)) }, admin);
  });

  it("says so when nothing was entered", async () => {
    const response = await save(noGo, "/northfield/controls/no-go-topics", { ...row(0, "", "") }, admin);
    await expect(response).toSendToast({ type: "info", description: NOTHING_TO_SAVE });
  });
});

describe("Hallucination Accuracy & Quality Check", () => {
  const PAGE = "/northfield/agent/studentsuccess/controls/quality-check";

  it("shows the defaults", async () => {
    expect((await load(quality, PAGE, admin)).settings).toMatchObject({
      min_retrieval_confidence: 0.04,
      require_source: true,
      max_sources: 3,
    });
  });

  it("refuses out-of-range values beside their fields, keeping what was typed", async () => {
    const refused = await save(
      quality,
      PAGE,
      { min_retrieval_confidence: "1.5", require_source: "on", max_sources: "", fallback_message: "Sorry." },
      admin,
    );
    expect(refused.status).toBe(400);
    const reply = await refused.json();
    expect(reply.error).toMatchObject({
      min_retrieval_confidence: ["Enter a number from 0 to 1"],
      max_sources: ["Enter a whole number from 1 to 10"],
    });
    expect(reply.initialValue).toMatchObject({ min_retrieval_confidence: "1.5", fallback_message: "Sorry." });
  });

  it("saves, reading a checkbox left unticked (not posted at all) as no", async () => {
    const response = await save(
      quality,
      PAGE,
      { min_retrieval_confidence: "0.25", max_sources: "5", fallback_message: "Please ask our team." },
      admin,
    );
    expect(response).toHaveRedirect();
    await expect(response).toSendToast({
      type: "success",
      description: "Hallucination Accuracy & Quality Check saved for Student Success.",
    });
    expect((await load(quality, PAGE, admin)).settings).toEqual({
      min_retrieval_confidence: 0.25,
      require_source: false,
      max_sources: 5,
      fallback_message: "Please ask our team.",
    });
  });
});

describe("a save from a page loaded before another", () => {
  const PAGE = "/northfield/agent/admissions/controls/quality-check";
  const DEFAULTS = { min_retrieval_confidence: "0.04", require_source: "on", max_sources: "3" };

  it("keeps the Quality Check's settings another tab saved meanwhile, and flags one both changed", async () => {
    const settings = (await load(quality, PAGE, admin)).settings;
    const loaded = JSON.stringify(qualityBaseline(settings));
    const fallback = settings.fallback_message;
    // Tab A raises the threshold; tab B, loaded before, changes only the fallback message.
    await save(
      quality,
      PAGE,
      { ...DEFAULTS, min_retrieval_confidence: "0.07", fallback_message: fallback, loaded },
      admin,
    );
    const b = await save(quality, PAGE, { ...DEFAULTS, fallback_message: "Ask our team.", loaded }, admin);
    expect(b).toHaveRedirect(PAGE);
    expect((await load(quality, PAGE, admin)).settings).toMatchObject({
      min_retrieval_confidence: 0.07,
      fallback_message: "Ask our team.",
    });
    // Both change the threshold, differently: refused beside it, nothing saved.
    const clash = await save(
      quality,
      PAGE,
      { ...DEFAULTS, min_retrieval_confidence: "0.1", fallback_message: fallback, loaded },
      admin,
    );
    expect(clash.status).toBe(409);
    expect((await clash.json()).error.min_retrieval_confidence).toEqual([
      "Changed to “0.07” since you opened this page; save again to keep yours",
    ]);
    expect((await load(quality, PAGE, admin)).settings.min_retrieval_confidence).toBe(0.07);
    await save(quality, PAGE, { ...DEFAULTS, fallback_message: fallback }, admin);
  });

  it("keeps an AI Personality saved meanwhile from a page that did not change it", async () => {
    const page = "/northfield/agent/admissions/controls/ai-personality";
    const loaded = JSON.stringify({ prompt_input_raw: (await load(personality, page, admin)).text });
    await save(personality, page, { prompt_input_raw: "Saved in tab A.", loaded }, admin);
    const clash = await save(personality, page, { prompt_input_raw: "Typed in tab B.", loaded }, admin);
    expect(clash.status).toBe(409);
    const reply = await clash.json();
    expect(reply.initialValue.prompt_input_raw).toBe("Typed in tab B.");
    expect(reply.error.prompt_input_raw).toEqual([
      "Changed to “Saved in tab A.” since you opened this page; save again to keep yours",
    ]);
    expect((await load(personality, page, admin)).text).toBe("Saved in tab A.");
  });
});

describe("User Probing Guidelines", () => {
  it("saves only the texts that are non-empty or changed; agents inherit the Default's", async () => {
    const legacy = "/northfield/ai-finetuning/smart-probe";
    expect((await load(probing, legacy, admin)).texts).toEqual({ topics: "", topic_to_prob_mapping: "" });
    const response = await save(
      probing,
      legacy,
      { topics: "Start term\r\nStudy mode", topic_to_prob_mapping: "" },
      admin,
    );
    expect(response).toHaveRedirect(legacy);
    await expect(response).toSendToast({ type: "success", description: "User Probing Guidelines saved for Default." });
    const agent = await load(probing, "/northfield/agent/admissions/knowledge-store/smart-probing", admin);
    expect(agent.texts).toEqual({ topics: "Start term\nStudy mode", topic_to_prob_mapping: "" });
  });

  it("says an emptied text the trigger point only inherits is not saved, instead of that it was", async () => {
    const legacy = "/northfield/ai-finetuning/smart-probe";
    await save(probing, legacy, { topics: "Inherited topics", topic_to_prob_mapping: "" }, admin);
    const page = "/northfield/agent/admissions/knowledge-store/smart-probing";
    const before = (await load(probing, page, admin)).texts;
    expect(before.topics).toBe("Inherited topics");

    const emptied = await save(probing, page, { topics: "", topic_to_prob_mapping: "" }, admin);
    expect(emptied).toHaveRedirect(page);
    await expect(emptied).toSendToast({ type: "info", description: `Nothing saved. ${EMPTY_PROBING_NOT_SAVED}` });
    expect((await load(probing, page, admin)).texts).toEqual(before);

    // With another text saved alongside, the toast says both.
    const mixed = await save(probing, page, { topics: "", topic_to_prob_mapping: "Own mapping" }, admin);
    await expect(mixed).toSendToast({
      type: "success",
      description: `User Probing Guidelines saved for Admissions Assistant. ${EMPTY_PROBING_NOT_SAVED}`,
    });
    expect((await load(probing, page, admin)).texts).toEqual({
      topics: "Inherited topics",
      topic_to_prob_mapping: "Own mapping",
    });
  });

  it("shows the API's message beside the text it refused", async () => {
    const page = "/northfield/agent/studentsuccess/knowledge-store/smart-probing";
    const response = await save(probing, page, { topics: "", topic_to_prob_mapping: "y".repeat(20_001) }, admin);
    expect(response.status).toBe(400);
    expect((await response.json()).error.topic_to_prob_mapping).toEqual(["Keep it to at most 20,000 characters"]);
  });
});

describe("who may save", () => {
  it("lets a client user look but answers 403 to a save", async () => {
    const viewer = await signInToConsole(host, "client.user@example.com");
    expect((await load(sensitive, "/northfield/agent/admissions/controls/sensitive-topics", viewer)).rows).toHaveLength(
      8,
    );
    for (const [screen, path] of [
      [personality, "/northfield/agent/admissions/controls/ai-personality"],
      [sensitive, "/northfield/agent/admissions/controls/sensitive-topics"],
      [noGo, "/northfield/controls/no-go-topics"],
      [quality, "/northfield/controls/quality-check"],
      [probing, "/northfield/ai-finetuning/smart-probe"],
    ] as const) {
      const refused = await save(screen, path, { prompt_input_raw: "x", topics: "x" }, viewer);
      expect(refused.status, path).toBe(403);
      // Said as a change refused, not as a page they may not see (they may).
      expect(await refused.text(), path).toBe(NOT_YOURS_TO_CHANGE);
    }
  });

  it("lets a client admin save", async () => {
    const clientAdmin = await signInToConsole(host, "client.admin@example.com");
    const response = await save(
      probing,
      "/northfield/agent/admissions/knowledge-store/smart-probing",
      { topics: "", topic_to_prob_mapping: "Map A" },
      clientAdmin,
    );
    expect(response).toHaveRedirect();
  });

  it("answers 404 to a save for an unknown agent", async () => {
    const clientAdmin = await signInToConsole(host, "client.admin@example.com");
    expect(
      (await save(probing, "/northfield/agent/ghost/knowledge-store/smart-probing", { topics: "x" }, clientAdmin))
        .status,
    ).toBe(404);
  });
});

describe("a load the API refuses", () => {
  it("shows 'Error: {message}' instead of the form", async () => {
    const context = testContext(host);
    const apiFetch = context.apiFetch;
    context.apiFetch = async (request) =>
      new URL(request.url).pathname === "/v1/controls"
        ? Response.json({ message: "Controls are unavailable" }, { status: 400 })
        : apiFetch(request);
    const data = await loaderJson(
      quality.loader,
      args(getRequest("/northfield/controls/quality-check", admin), context),
    );
    expect(data).toMatchObject({ error: "Error: Controls are unavailable" });
  });
});
