import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatEvent } from "@contract";
import { clientApps, conversations, messages, visitorProfiles } from "../db/schema";
import { isAnswering } from "../db/foreground";
import { startFixtureSite } from "../../tests/support/fixture-site";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { indexPages } from "../../tests/support/index-pages";
import { topicControl } from "../../tests/support/controls";
import { startStandInModel } from "../../tests/support/stand-in-model";

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;
let key: string;

beforeAll(async () => {
  site = await startFixtureSite({ slowMs: 100 });
  site.setPage(
    "/housing",
    "Housing | Northfield",
    "<h1>Housing</h1><p>First-year students live in Lakeside Hall. Housing applications open in May.</p>",
  );
  site.setPage(
    "/tours",
    "Campus tours | Northfield",
    "<h1>Campus tours</h1><p>Tours of the campus are popular with families, and tours fill up quickly in spring. Guided tours leave from Founders Hall at 10 am and 2 pm on weekdays. Self-guided tour maps wait at the welcome desk for families who arrive early or late.</p>",
  );
  site.setPage(
    "/nursing-school",
    "Nursing school | Northfield",
    "<h1>School of Nursing</h1><p>The nursing school is led by a dean appointed by the board of trustees for five years. The dean, Maria Lopez, came to Northfield from Lakeside Medical Center. The school has forty faculty members and two simulation labs.</p>",
  );
  site.setPage(
    "/programs/history",
    "History BA | Northfield",
    "<h1>History (BA)</h1><h2>Admission requirements</h2><p>Applicants send a writing sample of about ten pages.</p>",
  );
  site.setPage(
    "/archive/housing",
    "Housing 2019 | Northfield",
    "<h1>Housing (archived)</h1><p>First-year students housing applications open in March; first-year students live in the Old Quad housing.</p>",
  );
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 10_000 });
  call = apiCaller(host);
  admin = (await signInAs(host, "admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  const pages = [
    "/admissions",
    "/programs/nursing",
    "/programs/history",
    "/about",
    "/housing",
    "/archive/housing",
    "/tours",
    "/nursing-school",
  ].map((p) => `${site.base}${p}`);
  await indexPages(host, admin, appId, pages);
  key = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin })).body
    .key;
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

type Done = Extract<ChatEvent, { type: "done" }>;

/** Posts a message like the widget, from `ip` (the visitor's address as Express established it); the stream unread. */
function postChat(message: string, ip: string, extra: Record<string, unknown> = {}) {
  return host.api.request(
    "/v1/chat",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key, trigger_point: "admissions", message, ...extra }),
    },
    { incoming: { ip } },
  );
}

/** Posts a message like the widget and reads the streamed events. */
/** A conversation's stored messages in the order they were written. */
const storedMessages = (conversationId: string) =>
  host.deps.db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(asc(messages.id));

async function chat(message: string, extra: Record<string, unknown> = {}) {
  const response = await postChat(message, String(extra.ip ?? "203.0.113.7"), { ...extra, ip: undefined });
  if (!response.headers.get("content-type")?.startsWith("application/x-ndjson")) {
    // A refusal is plain JSON: no events, no answer.
    return {
      status: response.status,
      body: await response.json(),
      events: [] as ChatEvent[],
      text: "",
      done: null as unknown as Done,
      conversationId: "",
    };
  }
  const events = (await response.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as ChatEvent);
  const text = events
    .filter((e): e is Extract<ChatEvent, { type: "delta" }> => e.type === "delta")
    .map((e) => e.text)
    .join("");
  const done = events.find((e): e is Done => e.type === "done")!;
  const start = events.find((e): e is Extract<ChatEvent, { type: "start" }> => e.type === "start")!;
  return { status: response.status, body: null, events, text, done, conversationId: start.conversation_id };
}

/** The user profile data model's fields profile capture fills: contact fields, and a learning interest. */
async function defineUserProfileFields(names: ("email" | "first_name" | "intended_major")[]) {
  await call("POST", `/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
    token: admin,
    body: {
      personalisation_config_details: names.map((name) => ({
        name,
        field_type: "text",
        group: name === "intended_major" ? "Learning Interests" : "Personal Contact Information",
        model_type: "user_profile",
      })),
    },
  });
}

describe("the embed script", () => {
  it("names this server's widget, the client's key for the environment and the agent", async () => {
    const install = await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, {
      token: admin,
    });
    expect(install.body.content).toBe(
      `<script src="${host.deps.config.publicUrl}/widget.js" data-key="${key}" data-environment="stage" data-trigger-point="admissions" defer></script>`,
    );
    const prod = await call("GET", `/v1/bot_installs?app_id=${appId}&env=prod&app_name=admissions`, { token: admin });
    expect(prod.body.key).not.toBe(key);
    expect(
      (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { token: admin })).body.key,
    ).toBe(key);
    expect((await call("GET", `/v1/bot_installs?app_id=${appId}&env=dev`, { token: admin })).status).toBe(400);
  });

  it("serves the widget's settings for a valid key only, to any origin", async () => {
    await call("PUT", `/v1/appearances?appId=${appId}&triggerPoint=admissions`, {
      token: admin,
      body: { appearance: { value: { bot_name: "Nora" } } },
    });
    const config = await host.api.request(`/v1/widget/config?key=${key}&trigger_point=admissions`, {
      headers: { origin: "https://www.northfield.example" },
    });
    expect(config.headers.get("access-control-allow-origin")).toBe("*");
    // The widget reads how long to wait from a refusal's Retry-After, which a browser hides from a
    // script on another origin unless it is exposed.
    expect(config.headers.get("access-control-expose-headers")).toBe("Retry-After");
    expect(await config.json()).toMatchObject({
      environment: "stage",
      appearance: { bot_name: "Nora", primary_color: "#1f4b99" },
    });
    expect((await host.api.request("/v1/widget/config?key=sk_not-a-real-key-at-all")).status).toBe(403);
  });
});

describe("answers", () => {
  it("answers from the indexed pages, with sources, streamed, and stores the conversation", async () => {
    const reply = await chat("When do applications for fall close?");
    expect(reply.status).toBe(200);
    expect(reply.events[0].type).toBe("start");
    // Streamed in groups of at most twelve words, which together are the answer.
    const deltas = reply.events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text);
    expect(deltas.join("")).toBe(reply.text);
    expect(deltas.length).toBe(Math.ceil(reply.text.trim().split(/\s+/).length / 12));
    expect(reply.text).toContain("Applications for fall close on January 15.");
    expect(reply.done).toMatchObject({ outcome: "answered", disclaimer: null });
    expect(reply.done.sources[0]).toEqual({ title: "Admissions | Northfield", url: `${site.base}/admissions` });
    const stored = await storedMessages(reply.conversationId);
    expect(stored.map((m) => [m.role, m.outcome])).toEqual([
      ["user", null],
      ["assistant", "answered"],
    ]);
    const follow = await chat("And what about nursing?", { conversation_id: reply.conversationId });
    expect(follow.conversationId).toBe(reply.conversationId);
    const [last] = await host.deps.db.select().from(conversations).where(eq(conversations.id, reply.conversationId));
    expect(last.lastMessageAt).not.toBeNull();
    // A conversation id nobody issued (or another client's) starts a new conversation rather than joining one.
    const stranger = await chat("When do applications close?", {
      conversation_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(stranger.conversationId).not.toBe("00000000-0000-4000-8000-000000000000");
    expect((await storedMessages(stranger.conversationId)).map((m) => m.role)).toEqual(["user", "assistant"]);
    // The same embed key on another agent's page starts a conversation with that agent: each
    // answer is listed, traced and corrected under the agent whose settings gave it.
    const elsewhere = await chat("When do applications close?", {
      conversation_id: reply.conversationId,
      trigger_point: "studentsuccess",
    });
    expect(elsewhere.conversationId).not.toBe(reply.conversationId);
    const [moved] = await host.deps.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, elsewhere.conversationId));
    expect(moved.triggerPoint).toBe("studentsuccess");
    expect(await storedMessages(reply.conversationId)).toHaveLength(4);
  });

  it("searches a long message by its last words, where the visitor asks, and the trace says so", async () => {
    const story = Array.from(
      { length: 9 },
      () => "My daughter is a senior in Ohio and she has been reading about many universities lately.",
    ).join(" ");
    const reply = await chat(`${story} Who is the dean?`, { ip: "203.0.113.77" });
    const [answer] = await host.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, reply.conversationId), eq(messages.role, "assistant")));
    const trace = answer.trace as { searched?: string; key_words?: { word: string }[] };
    // The first 64 words held no question at all; the last ones end with it.
    expect(trace.searched).toMatch(/^….* Who is the dean\?$/);
    expect(trace.searched!.split(" ")).toHaveLength(64);
  });

  it("counts as an answer under way until the streamed answer is stored, so background jobs give way", async () => {
    const response = await postChat("When is the application deadline?", "203.0.113.8");
    // The handler has returned; the answer is still being composed from the database.
    expect(isAnswering()).toBe(true);
    await response.text();
    expect(isAnswering()).toBe(false);
  });

  it("leads with the sentence that answers, short, and cites its page first", async () => {
    const reply = await chat("What time do guided tours leave?");
    // The answering sentence first, not the page's first sentence that shares the word "tours".
    expect(reply.text).toMatch(/^Guided tours leave from Founders Hall at 10 am and 2 pm on weekdays\./);
    expect(reply.text).not.toContain("popular with families");
    expect(reply.text.split(/\s+/).length).toBeLessThanOrEqual(35);
    expect(reply.done.sources[0].url).toBe(`${site.base}/tours`);
  });

  it("answers a follow-up that points back at the previous question about what that question asked", async () => {
    // The same follow-up in two conversations: each is about the program its visitor asked about.
    const nursing = await chat("Tell me about the nursing program");
    const nursingFollow = await chat("What are its admission requirements?", {
      conversation_id: nursing.conversationId,
    });
    expect(nursingFollow.text).toContain("Applicants need a high-school diploma and two years of laboratory science.");
    expect(nursingFollow.done.sources[0].url).toBe(`${site.base}/programs/nursing`);
    const history = await chat("Tell me about the history program");
    const historyFollow = await chat("What are its admission requirements?", {
      conversation_id: history.conversationId,
    });
    expect(historyFollow.text).toContain("Applicants send a writing sample of about ten pages.");
    expect(historyFollow.done.sources[0].url).toBe(`${site.base}/programs/history`);
    // "What about …?" asks the previous question again about something else.
    const about = await chat("What about the history program?", { conversation_id: nursingFollow.conversationId });
    expect(about.text).toContain("Applicants send a writing sample of about ten pages.");
    // One that asks for a kind of answer (an amount) with no key word of its own asks it of the previous question's subject.
    const program = await chat("Tell me about the nursing program");
    const cost = await chat("How much does it cost?", { conversation_id: program.conversationId });
    expect(cost.text).toContain("Tuition is $12,400 per semester.");
    expect(cost.done.sources[0].url).toBe(`${site.base}/programs/nursing`);
    // One that names neither a subject nor a kind of answer gets the fallback, not the previous answer again.
    const why = await chat("Why is that?", { conversation_id: program.conversationId });
    expect(why.done.outcome).toBe("fallback");
    // A question that does not point back stands on its own, whatever was asked before.
    const other = await chat("What time do guided tours leave?", { conversation_id: history.conversationId });
    expect(other.done.sources[0].url).toBe(`${site.base}/tours`);
  });

  it("adds the neighbouring sentence that holds the kind of answer asked for (who: a name)", async () => {
    const reply = await chat("Who leads the nursing school?");
    expect(reply.text).toContain("Maria Lopez");
    expect(reply.text).not.toContain("forty faculty members");
    expect(reply.done.sources[0].url).toBe(`${site.base}/nursing-school`);
  });

  it("says a no-go topic's canned response and adds a sensitive topic's disclaimer", async () => {
    const saved = await call("PUT", "/v1/controls", {
      token: admin,
      body: {
        app_id: appId,
        controls: [
          topicControl("no_go_topics", "legal advice", "I can't give legal advice. Please contact a lawyer."),
          topicControl(
            "sensitive_topics",
            "tuition",
            "Tuition changes every year; the bursar's office has the current figures.",
            "admissions",
          ),
        ],
      },
    });
    expect(saved.status).toBe(200);
    const canned = await chat("Can you give me legal advice about my visa?");
    expect(canned.text).toBe("I can't give legal advice. Please contact a lawyer.");
    expect(canned.done).toMatchObject({ outcome: "canned", sources: [] });
    const sensitive = await chat("How much is tuition?");
    expect(sensitive.text).toContain("Tuition is $12,400 per semester.");
    expect(sensitive.done).toMatchObject({
      outcome: "disclaimed",
      disclaimer: "Tuition changes every year; the bursar's office has the current figures.",
    });
    // A follow-up is about what its previous question was about: the same topics apply to it.
    const stillSensitive = await chat("Is it charged per semester?", { conversation_id: sensitive.conversationId });
    expect(stillSensitive.done).toMatchObject({
      outcome: "disclaimed",
      disclaimer: "Tuition changes every year; the bursar's office has the current figures.",
    });
    const stillNoGo = await chat("What would it cost me?", { conversation_id: canned.conversationId });
    expect(stillNoGo).toMatchObject({
      text: "I can't give legal advice. Please contact a lawyer.",
      done: { outcome: "canned" },
    });
    // The traces say where each topic is set: the No-Go topic on Default's list, the Sensitive one on the agent's.
    const controlsOf = async (conversationId: string) =>
      (await storedMessages(conversationId)).flatMap((m) => (m.trace ? m.trace.controls : []));
    expect(await controlsOf(canned.conversationId)).toEqual([
      { type: "no_go_topic", name: "legal advice", from_default: true },
      { type: "no_go_topic", name: "legal advice", from_default: true },
    ]);
    expect(await controlsOf(sensitive.conversationId)).toEqual([
      { type: "sensitive_topic", name: "tuition" },
      { type: "sensitive_topic", name: "tuition" },
    ]);
  });

  it("keeps to the topics a message raises outside the words it searches: before its last words, or beside its questions", async () => {
    const ip = { ip: "203.0.113.90" };
    const story = Array.from(
      { length: 9 },
      () => "My daughter is a senior in Ohio and she has been reading about many universities lately.",
    ).join(" ");
    // A long message is searched by its last words; the No-Go topic it opens with still holds.
    const long = await chat(`I need legal advice about my visa. ${story} Who is the dean?`, ip);
    expect(long.text).toBe("I can't give legal advice. Please contact a lawyer.");
    expect(long.done).toMatchObject({ outcome: "canned", sources: [] });
    // Several questions are answered each on its own; the sentence beside them raising the topic still holds.
    const several = await chat(
      "I want legal advice. When do guided tours leave? Where do first-year students live?",
      ip,
    );
    expect(several.text).toBe("I can't give legal advice. Please contact a lawyer.");
    expect(several.done.outcome).toBe("canned");
    const [trace] = await host.deps.db
      .select({ trace: messages.trace })
      .from(messages)
      .where(and(eq(messages.conversationId, several.conversationId), eq(messages.role, "assistant")));
    expect(trace.trace).toMatchObject({ controls: [{ type: "no_go_topic", name: "legal advice" }] });
    // A Sensitive topic said beside the questions adds its disclaimer once to their answers.
    const disclaimed = await chat(
      "Tuition worries me a lot. When do guided tours leave? Where do first-year students live?",
      ip,
    );
    expect(disclaimed.text).toContain("Guided tours leave from Founders Hall");
    expect(disclaimed.done).toMatchObject({
      outcome: "disclaimed",
      disclaimer: "Tuition changes every year; the bursar's office has the current figures.",
    });
    // A question of several about the topic that went unanswered: no answer is about it, none carries its disclaimer.
    const unanswered = await chat("Is tuition paid in moon rocks on Mars? When do guided tours leave?", ip);
    expect(unanswered.text).toContain("I couldn't find an answer to “Is tuition paid in moon rocks on Mars?”");
    expect(unanswered.text).toContain("Guided tours leave from Founders Hall");
    expect(unanswered.done).toMatchObject({ outcome: "answered", disclaimer: null });
  });

  it("gives the fallback message below the quality check's confidence", async () => {
    const reply = await chat("What is the weather like on Mars tonight?");
    expect(reply.done.outcome).toBe("fallback");
    expect(reply.text).toMatch(/^I'm sorry, I couldn't find that/);
    await call("PUT", "/v1/controls", {
      token: admin,
      body: {
        app_id: appId,
        controls: [
          {
            internal_name: "quality_check",
            trigger_point: "admissions",
            metadata: {
              min_retrieval_confidence: 0.95,
              require_source: true,
              max_sources: 3,
              fallback_message: "Please ask our admissions team.",
            },
          },
        ],
      },
    });
    const strict = await chat("When does housing open for first-year students on Mars?");
    expect(strict).toMatchObject({ text: "Please ask our admissions team.", done: { outcome: "fallback" } });
    await call("PUT", "/v1/controls", {
      token: admin,
      body: {
        app_id: appId,
        controls: [
          {
            internal_name: "quality_check",
            trigger_point: "admissions",
            metadata: {
              min_retrieval_confidence: 0.3,
              require_source: true,
              max_sources: 3,
              fallback_message: "Please ask our admissions team.",
            },
          },
        ],
      },
    });
  });

  it("lets finetuning penalties change which source wins", async () => {
    const before = await chat("Where do first-year students live in housing?");
    expect(before.done.sources[0].url).toBe(`${site.base}/archive/housing`);
    const rule = await call("POST", "/v1/controls/upsert_finetunings", {
      token: admin,
      body: {
        app_id: appId,
        finetunings: [{ trigger_point: "", finetuning_type: "url_pattern", pattern: "/archive/", penalty: 0.9 }],
      },
    });
    expect(rule.status).toBe(200);
    const after = await chat("Where do first-year students live in housing?");
    expect(after.done.sources[0].url).toBe(`${site.base}/housing`);
    expect(after.text).toContain("Lakeside Hall");
  });

  it("captures what the visitor says about themselves into the user profile fields", async () => {
    await defineUserProfileFields(["email", "first_name", "intended_major"]);
    const reply = await chat(
      "Hi, my name is Maya Patel and my intended major is nursing. Reach me at maya.patel@example.org please.",
    );
    const [profile] = await host.deps.db
      .select()
      .from(visitorProfiles)
      .where(eq(visitorProfiles.conversationId, reply.conversationId));
    expect(profile.values).toEqual({ email: "maya.patel@example.org", first_name: "Maya", intended_major: "nursing" });
    const [asked] = await host.deps.db.select().from(messages).where(eq(messages.conversationId, reply.conversationId));
    expect(profile.sourceMessages).toEqual({ email: asked.id, first_name: asked.id, intended_major: asked.id });
  });

  it("reads a name and an address written beyond ASCII, and answers the question they came with", async () => {
    await defineUserProfileFields(["email", "first_name"]);
    const reply = await chat(
      "Hi, my name is Émilie Dubois, émilie.dubois@exemple.fr. When do applications for fall close?",
      {
        ip: "203.0.113.61",
      },
    );
    expect(reply.done.outcome).toBe("answered");
    expect(reply.text).toContain("January 15");
    const [profile] = await host.deps.db
      .select()
      .from(visitorProfiles)
      .where(eq(visitorProfiles.conversationId, reply.conversationId));
    expect(profile.values).toEqual({ email: "émilie.dubois@exemple.fr", first_name: "Émilie" });
    const [asked] = await host.deps.db.select().from(messages).where(eq(messages.conversationId, reply.conversationId));
    expect(asked.questionPart).toBe("When do applications for fall close?");
  });
});

describe("with LLM_BASE_URL", () => {
  it("has an OpenAI-compatible model write the answer from the retrieved passages under the personality, input prompts and probing guidelines", async () => {
    const replies: string[] = [];
    const model = await startStandInModel(
      () => replies.shift() ?? "Fall applications close on January 15 [1] — we'd love to see yours! [99]",
    );
    const seen = model.requests;
    await call("PUT", `/v1/apps/${appId}/input_prompts`, {
      token: admin,
      body: { input_prompts: [{ internal_name: "tone", prompt_input_raw: "Be upbeat.", trigger_point: "admissions" }] },
    });
    await call("PUT", `/v1/apps/${appId}/ai_probings`, {
      token: admin,
      body: {
        ai_probings: [
          { internal_name: "topics", prompt_input_raw: "Intended start term", trigger_point: "admissions" },
          {
            internal_name: "topic_to_prob_mapping",
            prompt_input_raw: "Deadlines -> Intended start term",
            trigger_point: "admissions",
          },
        ],
      },
    });
    host.deps.config.llm = model.config;
    try {
      const reply = await chat("When do applications for fall close?");
      // The model cites the passages by number; a number naming no passage is dropped.
      expect(reply.text).toBe("Fall applications close on January 15 [1] — we'd love to see yours!");
      expect(reply.done.sources[0].url).toBe(`${site.base}/admissions`);
      expect(seen[0].system).toContain("tone: Be upbeat.");
      // The probing guidelines tell the model what it may ask the visitor after answering.
      expect(seen[0].system).toMatch(/ask the visitor about one of these topics[^\n]*\nIntended start term/);
      expect(seen[0].system).toContain("Deadlines -> Intended start term");
      expect(seen[0].system).toContain("Cite the passages you use by their numbers");
      // Passage [1] is the one holding the answering sentence: the first source listed.
      expect(seen[0].user).toMatch(/\[1\] Admissions \| Northfield[^\n]*\nApplications for fall close on January 15\./);
      // It reads more passages than an answer may cite (Maximum Sources Per Answer, 3 by default)…
      expect(seen[0].user.match(/^\[\d+\] /gm)!.length).toBeGreaterThan(3);
      expect(seen[0].system).toContain("cite at most 3 passages");
      // … and the sources listed are the ones it cites, numbered as they are listed.
      replies.push("See the housing page [4] and the admissions page [1].");
      const cited = await chat("When do applications for fall close?");
      expect(cited.text).toBe("See the housing page [1] and the admissions page [2].");
      const fourth = /^\[4\] ([^\n]+)$/m.exec(seen[1].user)![1].split(" › ")[0];
      expect(cited.done.sources.map((s) => s.title)).toEqual([
        fourth,
        seen[1].user.match(/^\[1\] ([^\n]+)$/m)![1].split(" › ")[0],
      ]);
      // A model that finds no answer in the passages says so with a fixed word: the visitor gets
      // the fallback message, and the question counts as unanswered.
      replies.push("NO_ANSWER");
      const declined = await chat("When do applications for fall close?");
      expect(declined.text).toBe("Please ask our admissions team."); // the agent's fallback message, set above
      expect(declined.done).toMatchObject({ outcome: "fallback", sources: [] });
      expect(seen[2].system).toContain("reply with NO_ANSWER and nothing else");
      // A no-go topic never reaches the model.
      await chat("Can you give me legal advice?");
      expect(seen).toHaveLength(3);
      model.close();
      // With the model gone, the quoted answer stands.
      const fallback = await chat("When do applications for fall close?");
      expect(fallback.text).toContain("Applications for fall close on January 15.");
    } finally {
      host.deps.config.llm = null;
      model.close();
    }
  });
});

describe("with LLM_BASE_URL and no source required", () => {
  it("has the model answer from general knowledge when nothing in the store can be cited, and never when a source is required", async () => {
    const model = await startStandInModel(() => "Nights on Mars fall far below freezing.");
    const seen = model.requests;
    const qualityCheck = async (metadata: Record<string, unknown>) =>
      (
        await call("PUT", "/v1/controls", {
          token: admin,
          body: {
            app_id: appId,
            controls: [{ internal_name: "quality_check", trigger_point: "admissions", metadata }],
          },
        })
      ).status;
    const before = (
      await call("GET", `/v1/controls?app_id=${appId}&trigger_point=admissions&types=quality_check`, { token: admin })
    ).body.controls[0].metadata;
    host.deps.config.llm = model.config;
    const ip = { ip: "203.0.113.91" };
    try {
      // A source required (the default): the fallback message, and the model is not asked.
      const required = await chat("What is the weather like on Mars tonight?", ip);
      expect(required.done.outcome).toBe("fallback");
      expect(seen).toHaveLength(0);
      expect(await qualityCheck({ ...before, require_source: false })).toBe(200);
      const general = await chat("What is the weather like on Mars tonight?", ip);
      expect(general.text).toBe("Nights on Mars fall far below freezing.");
      expect(general.done).toMatchObject({ outcome: "answered", sources: [] });
      expect(seen).toHaveLength(1);
      expect(seen[0].system).toContain("general knowledge");
      expect(seen[0].user).not.toContain("Passages:");
      const [stored] = await host.deps.db
        .select({ trace: messages.trace })
        .from(messages)
        .where(and(eq(messages.conversationId, general.conversationId), eq(messages.role, "assistant")));
      expect(stored.trace).toMatchObject({ model: true });
    } finally {
      host.deps.config.llm = null;
      model.close();
      await qualityCheck(before);
    }
  });
});

describe("the public endpoint's guards", () => {
  it("refuses unknown keys and bad messages, and limits how often one visitor may ask", async () => {
    expect((await chat("Hello", { key: "sk_nobody-issued-this-key" })).status).toBe(403);
    // A client set inactive keeps its key, which opens nothing until the client is active again.
    const setStatus = (status: string) =>
      host.deps.db.update(clientApps).set({ status }).where(eq(clientApps.id, appId));
    await setStatus("inactive");
    try {
      const asleep = await chat("When do applications close?", { ip: "198.51.100.30" });
      expect(asleep.status, JSON.stringify(asleep.body)).toBe(403);
      expect(asleep.body).toEqual((await chat("Hello", { key: "sk_nobody-issued-this-key" })).body);
      const config = await host.api.request(`/v1/widget/config?key=${key}&trigger_point=admissions`);
      expect(config.status).toBe(403);
    } finally {
      await setStatus("active");
    }
    expect((await chat("When do applications close?", { ip: "198.51.100.30" })).status).toBe(200);
    expect((await chat("")).body).toMatchObject({ message: "Type a message" });
    // A body larger than any chat message can be is refused before it is read, readably by the widget.
    const huge = await host.api.request("/v1/chat", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://www.northfield.example" },
      body: JSON.stringify({ key, message: "x".repeat(20_000) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.headers.get("access-control-allow-origin")).toBe("*");
    expect(await huge.json()).toEqual({ message: "Keep messages to at most 2,000 characters" });
    // The longest message allowed, in characters of three bytes each, still fits.
    expect((await chat("€".repeat(2000))).status).toBe(200);
    host.deps.config.chatRateLimitPerMinute = 2;
    try {
      expect((await chat("One?", { ip: "198.51.100.9" })).status).toBe(200);
      expect((await chat("Two?", { ip: "198.51.100.9" })).status).toBe(200);
      const third = await chat("Three?", { ip: "198.51.100.9" });
      expect(third).toMatchObject({
        status: 429,
        body: { message: "Too many messages at once; wait a minute and try again" },
      });
      expect((await chat("Another visitor", { ip: "198.51.100.10" })).status).toBe(200);
    } finally {
      host.deps.config.chatRateLimitPerMinute = 30;
    }
    expect(await host.deps.db.select().from(conversations).where(eq(conversations.appId, appId))).not.toHaveLength(0);
  });
});

describe("a visitor who leaves mid-answer", () => {
  it("still has the answer stored, and nothing fails when the stream is cancelled", async () => {
    const response = await postChat("Where do first-year students live?", "203.0.113.77");
    const reader = response.body!.getReader();
    const first = JSON.parse(new TextDecoder().decode((await reader.read()).value).split("\n")[0]) as Extract<
      ChatEvent,
      { type: "start" }
    >;
    await reader.cancel();
    // The answer is composed after the page has gone; it is stored all the same (setup fails the
    // test had anything been logged as an error).
    await expect
      .poll(async () => (await storedMessages(first.conversation_id)).map((m) => m.role), { timeout: 5000 })
      .toEqual(["user", "assistant"]);
  });
});
