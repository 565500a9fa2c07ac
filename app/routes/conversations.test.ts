import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationDetail, ConversationRow } from "@contract";
import { chatCall, feedbackCall } from "../../tests/support/chat-call";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { apiCaller, signInAs } from "../../tests/support/test-host";
import { indexedSite, pageIn } from "../../tests/support/widget-chat";
import { parseCsv } from "~/lib/csv";
import { readConversationFilters } from "~/server/conversations.server";
import * as agentList from "./$appName.agent.$agentName.conversations";
import * as agentTranscript from "./$appName.agent.$agentName.conversations_.$conversationId";
import * as agentExport from "./$appName.agent.$agentName.conversations_.export";
import * as clientList from "./$appName.conversations";
import * as clientTranscript from "./$appName.conversations_.$conversationId";
import * as clientExport from "./$appName.conversations_.export";
import * as testQuestions from "./$appName.agent.$agentName.controls.test-questions";

/*
 * The Conversations screens' loaders and actions over the real API, with conversations held
 * through the real `/v1/chat` about pages the real pipeline indexed: the list and its filters in
 * the address, the CSV, a transcript and its traces, and the corrections made from an answer, as
 * a form post without JavaScript sends them.
 */
let site: Awaited<ReturnType<typeof indexedSite>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let viewer: string;
let superToken: string;
let appId: number;

const AGENT = "/northfield/agent/admissions/conversations";
const CLIENT = "/northfield/conversations";
const agentParams = { appName: "northfield", agentName: "admissions" };

/** A visitor's question as the widget sends it; answers the conversation, the answer's message id and its outcome. */
const ask = (key: string, message: string, options: { triggerPoint?: string; conversation?: string } = {}) =>
  chatCall(
    site.host.api,
    { key, trigger_point: options.triggerPoint ?? "admissions", message, conversation_id: options.conversation },
    "203.0.113.51",
  );

/*
 * Admissions: "deadline" (answered from the admissions page, then a fallback), asked first;
 * Student Success: "lab" (a fallback), asked next; Harbor Outfitters (another client): "harbor".
 */
let deadline: Awaited<ReturnType<typeof ask>>;
let deadlineFallback: Awaited<ReturnType<typeof ask>>;
let lab: Awaited<ReturnType<typeof ask>>;
let harbor: Awaited<ReturnType<typeof ask>>;

beforeAll(async () => {
  site = await indexedSite([
    {
      path: "/admissions",
      html: pageIn("en", "Fall semester applications", [
        "Applications for the fall semester close on January 15 every year.",
      ]),
    },
    {
      path: "/archive",
      html: pageIn("en", "News archive", ["In 2019, applications for the fall semester closed on March 1."]),
    },
  ]);
  call = apiCaller(site.host);
  admin = await signInToConsole(site.host, "client.admin@example.com");
  viewer = await signInToConsole(site.host, "client.user@example.com");
  superToken = (await signInAs(site.host, "admin@example.com")).user_token;
  const apps = (await call("GET", "/v1/apps", { token: superToken })).body.apps as { id: number; url_code: string }[];
  appId = apps.find((app) => app.url_code === "northfield")!.id;
  const harborId = apps.find((app) => app.url_code === "shopharbor-outfitters")!.id;
  const harborKey = (
    await call("GET", `/v1/bot_installs?app_id=${harborId}&env=stage&app_name=shop`, { token: superToken })
  ).body.key as string;

  deadline = await ask(site.key, "When do applications for the fall semester close?");
  deadlineFallback = await ask(site.key, "Is there a quantum teleportation lab?", {
    conversation: deadline.conversation,
  });
  lab = await ask(site.key, "Where is the robotics lab?", { triggerPoint: "studentsuccess" });
  harbor = await ask(harborKey, "Do you sell rain jackets?", { triggerPoint: "shop" });
}, 120_000);
afterAll(() => site?.close());

const args = (request: Request, params: Record<string, string> = agentParams) => ({
  request,
  context: testContext(site.host),
  params,
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const loadList = (path: string, cookie = admin): Promise<any> =>
  path.startsWith(AGENT)
    ? loaderJson(agentList.loader, args(getRequest(path, cookie), agentParams))
    : loaderJson(clientList.loader, args(getRequest(path, cookie), { appName: "northfield" }));
const transcript = (id: string, cookie = admin, path = `${AGENT}/${id}`) =>
  settle(() => agentTranscript.loader(args(getRequest(path, cookie), { ...agentParams, conversationId: id })));
const loadTranscript = async (
  id: string,
  cookie = admin,
): Promise<{
  conversation: ConversationDetail;
  canCorrect: boolean;
  pageRules: Record<string, number>;
  thresholdNow: number | null;
  testQuestionsPath: string;
  qualityCheckPath: string;
  topicScreens: Record<string, [string, string]>;
  finetuningPath: string;
  filesPath: string;
}> =>
  loaderJson(
    agentTranscript.loader,
    args(getRequest(`${AGENT}/${id}`, cookie), { ...agentParams, conversationId: id }),
  );
const correct = (id: string, fields: Record<string, string>, cookie = admin) =>
  settle(() =>
    agentTranscript.action(args(formRequest(`${AGENT}/${id}`, fields, cookie), { ...agentParams, conversationId: id })),
  );
const ids = (data: { conversations: ConversationRow[] }) => data.conversations.map((row) => row.id);
/** The Admissions agent's Test Questions screen, as a read-only user loads it. */
const admissionsTestQuestions = () =>
  loaderJson(testQuestions.loader, args(getRequest("/northfield/agent/admissions/controls/test-questions", viewer)));

describe("the Conversations list", () => {
  it("shows an agent its own conversations, latest first, with what each held", async () => {
    const data = await loadList(AGENT);
    expect(data.agent).toEqual({ name: "Admissions Assistant", triggerPoint: "admissions" });
    expect(ids(data)).toEqual([deadline.conversation]);
    expect(data.conversations[0]).toMatchObject({
      environment: "stage",
      trigger_point: "admissions",
      questions: 2,
      last_question: "Is there a quantum teleportation lab?",
      outcomes: { answered: 1, fallback: 1, canned: 0, disclaimed: 0 },
      rating: null,
      lead: false,
      reviewed: false,
    });
    expect(data).toMatchObject({
      total: 1,
      totalIsCapped: false,
      page: 1,
      totalPages: 1,
      filtersRefused: false,
      error: null,
      fieldErrors: {},
    });
  });

  it("shows the visitor's rating of an answer, given through the widget's own call, and filters on it", async () => {
    const rated = await feedbackCall(
      site.host.api,
      { key: site.key, answer: lab, rating: "down", comment: "I asked where the lab is." },
      "203.0.113.51",
    );
    expect(rated.status, await rated.clone().text()).toBe(200);
    expect(ids(await loadList(`${CLIENT}?rating=down`))).toEqual([lab.conversation]);
    expect(ids(await loadList(`${CLIENT}?rating=unrated`))).toEqual([deadline.conversation]);
    expect((await loadList(CLIENT)).conversations[0]).toMatchObject({ id: lab.conversation, rating: "down" });
    const response = await settle(() =>
      clientTranscript.loader(
        args(getRequest(`${CLIENT}/${lab.conversation}`, viewer), {
          appName: "northfield",
          conversationId: lab.conversation,
        }),
      ),
    );
    const answer = (await response.json()).conversation.messages[1];
    expect(answer).toMatchObject({
      id: lab.answer,
      rating: "down",
      comment: "I asked where the lab is.",
      reviewed: false,
    });
  });

  it("shows the client every agent's conversations, and never another client's", async () => {
    const data = await loadList(CLIENT);
    expect(data.agent).toBeNull();
    expect(ids(data)).toEqual([lab.conversation, deadline.conversation]);
    expect(ids(data)).not.toContain(harbor.conversation);
    const elsewhere = await settle(() =>
      clientList.loader(
        args(getRequest("/shopharbor-outfitters/conversations", admin), { appName: "shopharbor-outfitters" }),
      ),
    );
    expect(elsewhere.status).toBe(404);
  });

  it("filters by the address", async () => {
    expect(ids(await loadList(`${CLIENT}?outcome=answered`))).toEqual([deadline.conversation]);
    expect(ids(await loadList(`${CLIENT}?search=robotics`))).toEqual([lab.conversation]);
    expect(ids(await loadList(`${CLIENT}?environment=prod`))).toEqual([]);
  });

  it("sorts by the address", async () => {
    expect(ids(await loadList(`${CLIENT}?sort=oldest`))).toEqual([deadline.conversation, lab.conversation]);
    expect(ids(await loadList(`${CLIENT}?sort=most_questions&lead=false&reviewed=false&rating=unrated`))[0]).toBe(
      deadline.conversation,
    );
  });

  it("keeps the filters it was given, for the form to show", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const filtered = await loadList(
      `${AGENT}?from=${today}&to=${today}&environment=stage&outcome=fallback&page_size=10&page=1`,
    );
    expect(ids(filtered)).toEqual([deadline.conversation]);
    expect(filtered.values).toMatchObject({
      from: today,
      to: today,
      environment: "stage",
      outcome: "fallback",
      page_size: "10",
    });
  });

  it("asks the API for 10 rows unless the address asks for another size (spec section 9)", () => {
    const sizeAsked = (search: string) => readConversationFilters(new URLSearchParams(search)).query?.page_size;
    expect(sizeAsked("")).toBe(10);
    expect(sizeAsked("page_size=20")).toBe(20);
    expect(sizeAsked("page_size=25")).toBe(25);
  });

  it("pages by the address, a page past the end showing the last page, as its pager says", async () => {
    const past = await loadList(`${CLIENT}?page_size=10&page=2`);
    expect(past).toMatchObject({ total: 2, page: 1, totalPages: 1 });
    expect(past.conversations).toHaveLength(2);
  });

  it("says what is wrong with a filter beside it, keeping what was typed, instead of an error page", async () => {
    const cases: [string, string, RegExp][] = [
      ["from=yesterday", "from", /^Dates are YYYY-MM-DD$/],
      ["from=2026-05-02&to=2026-05-01", "from", /^The start date must be on or before the end date$/],
      ["to=2026-02-30", "to", /^Not a date$/],
      ["outcome=lost", "outcome", /^Choose an outcome from the list$/],
      ["rating=5", "rating", /^Choose Rated helpful, Rated unhelpful or Not rated, or any rating$/],
      ["lead=maybe", "lead", /^Choose Lead captured or No lead, or either$/],
      ["reviewed=soon", "reviewed", /^Choose Reviewed or Not reviewed, or either$/],
      ["environment=live", "environment", /^Choose All, Production or Sandbox$/],
      ["page_size=7", "page_size", /^Choose 10, 20, 50 or 100 rows per page$/],
      ["from=0000-01-01", "from", /^Not a date$/],
      ["sort=random", "sort", /^Choose Latest first, Oldest first or Most questions first$/],
      [`search=${"x".repeat(201)}`, "search", /^Search for at most 200 characters$/],
    ];
    for (const [query, field, message] of cases) {
      const data = await loadList(`${AGENT}?${query}`);
      expect(data.fieldErrors[field]?.[0], query).toMatch(message);
      expect(data.filtersRefused, query).toBe(true);
      expect(data.conversations).toEqual([]);
    }
    expect((await loadList(`${AGENT}?outcome=lost&search=lab`)).values).toMatchObject({
      outcome: "lost",
      search: "lab",
    });
    // A page number is no filter: past any table, it is the last page.
    expect((await loadList(`${AGENT}?page=99999999999999999999`)).filtersRefused).toBe(false);
  });

  it("answers addresses no form sends with the page or a 400, never a server error", async () => {
    const queries = [
      "page=-1&page_size=0",
      "page_size=1e9&page=NaN",
      "sort=%00&order=%ED%A0%80&status=%FF",
      "search=%00%ED%A0%80",
      `search=${"a".repeat(8 * 1024)}`,
      "from=%00&to=9999-99-99",
      "q[]=1&q[99999999]=2&edit=1&delete=99999999999999999999",
    ];
    for (const query of queries) {
      await loadList(`${CLIENT}?${query}`);
      const exported = await settle(() =>
        clientExport.loader(args(getRequest(`${CLIENT}/export?${query}`, admin), { appName: "northfield" })),
      );
      expect([200, 400], query).toContain(exported.status);
    }
  });

  it("exports the filtered list as CSV, every page of it", async () => {
    const exported = await settle(() =>
      clientExport.loader(
        args(getRequest(`${CLIENT}/export?outcome=fallback&page_size=10&page=2`, viewer), { appName: "northfield" }),
      ),
    );
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(exported.headers.get("content-disposition")).toMatch(
      /^attachment; filename="northfield-conversations-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parseCsv(await exported.text());
    expect(rows[0]).toEqual([
      "Started (UTC)",
      "Environment",
      "Trigger point",
      "Questions",
      "Last question",
      "Answered",
      "Fallback",
      "Canned",
      "Disclaimed",
      "Small talk",
      "Rating",
      "Lead",
      "Reviewed",
      "Conversation id",
    ]);
    expect(rows.slice(1).map((row) => row[13])).toEqual([lab.conversation, deadline.conversation]);

    const agentCsv = await settle(() => agentExport.loader(args(getRequest(`${AGENT}/export`, admin))));
    expect(agentCsv.headers.get("content-disposition")).toMatch(/filename="northfield-admissions-conversations-/);
    expect(
      parseCsv(await agentCsv.text())
        .slice(1)
        .map((row) => row[13]),
    ).toEqual([deadline.conversation]);

    const refused = await settle(() => agentExport.loader(args(getRequest(`${AGENT}/export?from=yesterday`, admin))));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe("Dates are YYYY-MM-DD");
  });
});

describe("a conversation's transcript", () => {
  it("holds every message with its time, and each answer its sources and the trace recorded when it was given", async () => {
    const { conversation, canCorrect, testQuestionsPath } = await loadTranscript(deadline.conversation);
    expect(canCorrect).toBe(true);
    expect(testQuestionsPath).toBe("/northfield/agent/admissions/controls/test-questions");
    const links = await loadTranscript(deadline.conversation);
    expect([links.qualityCheckPath, links.finetuningPath, links.filesPath]).toEqual([
      "/northfield/agent/admissions/controls/quality-check",
      "/northfield/ai-finetuning/ai-finetuning",
      "/northfield/agent/admissions/knowledge-store/files",
    ]);
    // A topic's screen under the agent, and Default's for a topic its trace says is Default's.
    expect(links.topicScreens).toEqual({
      no_go_topic: ["/northfield/agent/admissions/controls/no-go-topics", "/northfield/controls/no-go-topics"],
      sensitive_topic: [
        "/northfield/agent/admissions/controls/sensitive-topics",
        "/northfield/controls/sensitive-topics",
      ],
    });
    expect(conversation.messages.map((message) => [message.role, message.outcome])).toEqual([
      ["user", null],
      ["assistant", "answered"],
      ["user", null],
      ["assistant", "fallback"],
    ]);
    for (const message of conversation.messages) expect(Date.parse(message.at), message.text).not.toBeNaN();
    const answer = conversation.messages[1];
    expect(answer.id).toBe(deadline.answer);
    expect(answer.question).toBe("When do applications for the fall semester close?");
    expect(answer.sources[0].url).toBe(`${site.base}/admissions`);
    const [top] = answer.trace!.passages;
    expect(top).toMatchObject({
      url: `${site.base}/admissions`,
      title: "Fall semester applications",
      rank: 1,
      passed: true,
      used: true,
      penalties: [],
    });
    expect(Date.parse(top.indexed_at!)).not.toBeNaN();
    expect(answer.trace!.threshold).toBeGreaterThan(0);
    expect(conversation.messages[3].trace!.passages.every((passage) => !passage.used)).toBe(true);
  });

  it("reads the same at client level, where another agent's conversations open too", async () => {
    const response = await settle(() =>
      clientTranscript.loader(
        args(getRequest(`${CLIENT}/${lab.conversation}`, viewer), {
          appName: "northfield",
          conversationId: lab.conversation,
        }),
      ),
    );
    expect(response.status).toBe(200);
    const data = await response.json();
    expect(data.conversation.trigger_point).toBe("studentsuccess");
    // The client-wide screens name the trigger point by its agent.
    expect(data.agentNames.studentsuccess).toEqual(expect.any(String));
    expect(data.canCorrect).toBe(false);
    expect(data.testQuestionsPath).toBe("/northfield/agent/studentsuccess/controls/test-questions");
  });

  it("is not found for an unknown id, a malformed one, another agent's or another client's conversation", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const id of [unknown, "not-a-conversation", lab.conversation, harbor.conversation]) {
      expect((await transcript(id)).status, id).toBe(404);
    }
    const clientLevel = await settle(() =>
      clientTranscript.loader(
        args(getRequest(`${CLIENT}/${harbor.conversation}`, admin), {
          appName: "northfield",
          conversationId: harbor.conversation,
        }),
      ),
    );
    expect(clientLevel.status).toBe(404);
    const harborPage = await settle(() =>
      clientTranscript.loader(
        args(getRequest(`/shopharbor-outfitters/conversations/${harbor.conversation}`, admin), {
          appName: "shopharbor-outfitters",
          conversationId: harbor.conversation,
        }),
      ),
    );
    expect(harborPage.status).toBe(404);
  });
});

describe("the threshold a trace was held to", () => {
  const qualityCheck = (min: number) =>
    call("PUT", "/v1/controls", {
      token: superToken,
      body: {
        app_id: appId,
        controls: [
          {
            internal_name: "quality_check",
            trigger_point: "admissions",
            metadata: { min_retrieval_confidence: min, require_source: true, max_sources: 3 },
          },
        ],
      },
    });

  it("is read beside the Quality Check's threshold now, which the trace links to", async () => {
    const before = await loadTranscript(deadline.conversation);
    expect(before.conversation.messages[1].trace!.threshold).toBe(0.04);
    expect(before.thresholdNow).toBe(0.04);
    expect((await qualityCheck(0.05)).status).toBe(200);
    try {
      const after = await loadTranscript(deadline.conversation);
      // The trace is what was; the threshold now is the one answers given since are held to.
      expect(after.conversation.messages[1].trace!.threshold).toBe(0.04);
      expect(after.thresholdNow).toBe(0.05);
      // A read-only user reads it too.
      expect((await loadTranscript(deadline.conversation, viewer)).thresholdNow).toBe(0.05);
    } finally {
      await qualityCheck(0.04);
    }
  });
});

describe("corrections made from an answer", () => {
  const asTestQuestion = () => ({ intent: "add-test-question", message_id: String(deadline.answer) });

  it("refuses a test question without what it needs, keeping what was typed, each message by its field", async () => {
    const base = asTestQuestion();
    const refused = await correct(deadline.conversation, {
      ...base,
      question: "",
      expect_outcome: "lost",
      expect_source: "",
      expect_source_typed: "x".repeat(2001),
    });
    expect(refused.status).toBe(400);
    const data = await refused.json();
    expect(data).toMatchObject({
      intent: "add-test-question",
      messageId: deadline.answer,
      values: { question: "", expect_outcome: "lost", expect_source_typed: "x".repeat(2001) },
    });
    expect(data.fieldErrors.question).toEqual(["This field is required"]);
    expect(data.fieldErrors.expect_outcome[0]).toMatch(/^The outcome must be one of/);
    expect(data.fieldErrors.expect_source_typed[0]).toMatch(/^Keep the expected source to at most 2,000 characters/);

    const nothingExpected = await correct(deadline.conversation, {
      ...base,
      question: "When do applications close?",
      expect_outcome: "",
      expect_source: "",
      expect_source_typed: "",
    });
    expect(nothingExpected.status).toBe(400);
    expect((await nothingExpected.json()).fieldErrors.expect_text).toEqual([
      "Say what the answer must do: a source, a text or an outcome",
    ]);
  });

  it("adds the answer as a test question, prefilled or typed", async () => {
    const base = asTestQuestion();
    const added = await correct(deadline.conversation, {
      ...base,
      question: "When do applications for the fall semester close?",
      expect_outcome: "answered",
      expect_source: `${site.base}/admissions`,
      expect_source_typed: "",
    });
    // Back to the control it was made with: the page scrolls there and, with JavaScript, focuses it.
    expect(added).toHaveRedirect(`${AGENT}/${deadline.conversation}#answer-${deadline.answer}-test-question`);
    await expect(added).toSendToast({
      type: "success",
      description: "Test question added: it runs with the agent's next test run.",
      link: { to: "/northfield/agent/admissions/controls/test-questions", label: "Open Test Questions" },
      durationMs: 10_000,
    });
    const typed = await correct(deadline.conversation, {
      ...base,
      question: "Is there a quantum teleportation lab?",
      expect_outcome: "fallback",
      expect_source: `${site.base}/admissions`,
      expect_source_typed: "lab-guide.pdf",
    });
    expect(typed).toHaveRedirect();
    // Posted again (a double click): said beside the question, nothing added.
    const twice = await correct(deadline.conversation, {
      ...base,
      question: "Is there a quantum teleportation lab?",
      expect_outcome: "fallback",
      expect_source: "",
      expect_source_typed: "lab-guide.pdf",
    });
    expect(twice.status).toBe(409);
    expect((await twice.json()).fieldErrors).toEqual({
      question: ["This question is already a test question of Admissions Assistant"],
    });

    const listed = await admissionsTestQuestions();
    expect(listed.questions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          question: "When do applications for the fall semester close?",
          expect_source: `${site.base}/admissions`,
          expect_outcome: "answered",
          trigger_point: "admissions",
        }),
        expect.objectContaining({
          question: "Is there a quantum teleportation lab?",
          expect_source: "lab-guide.pdf",
          expect_outcome: "fallback",
        }),
      ]),
    );
    expect(
      listed.questions.filter((q: { question: string }) => q.question === "Is there a quantum teleportation lab?"),
    ).toHaveLength(1);
  });

  /** The archive page among the passages the deadline answer's trace recorded. */
  const archivePassage = async () => {
    const { passages } = (await loadTranscript(deadline.conversation)).conversation.messages[1].trace!;
    return passages.find((passage) => passage.url === `${site.base}/archive`)!;
  };
  const finetuningRules = async () =>
    (await call("GET", `/v1/controls/list_finetunings?app_id=${appId}`, { token: superToken })).body.finetunings;

  it("lowers a page of the trace with the finetuning screen's save", async () => {
    const archive = await archivePassage();
    expect(archive.rank).toBeGreaterThan(1);
    const lowered = await correct(deadline.conversation, {
      intent: "finetune-page",
      message_id: String(deadline.answer),
      rank: String(archive.rank),
      weight: "lower",
    });
    // Back to the button the row now offers: lowered, it offers Exclude alone (Lower is gone).
    expect(lowered).toHaveRedirect(
      `${AGENT}/${deadline.conversation}#answer-${deadline.answer}-exclude-${archive.rank}`,
    );
    await expect(lowered).toSendToast({
      type: "success",
      description: `Finetuning saved: ${site.base}/archive is weighed down (penalty 0.5) in the answers of Admissions Assistant. A test run follows.`,
      link: { to: "/northfield/ai-finetuning/ai-finetuning", label: "Open AI Finetuning" },
      durationMs: 10_000,
    });
    expect(await finetuningRules()).toEqual([
      expect.objectContaining({
        trigger_point: "admissions",
        finetuning_type: "url_pattern",
        pattern: `^${site.base}/archive$`,
        penalty: 0.5,
      }),
    ]);
  });

  it("excludes a page of the trace, recorded in History and followed by a test run", async () => {
    const archive = await archivePassage();
    const excluded = await correct(deadline.conversation, {
      intent: "finetune-page",
      message_id: String(deadline.answer),
      rank: String(archive.rank),
      weight: "exclude",
    });
    // Excluded, the row offers Lower alone: the page comes back to it, not to the Exclude now gone.
    expect(excluded).toHaveRedirect(
      `${AGENT}/${deadline.conversation}#answer-${deadline.answer}-lower-${archive.rank}`,
    );
    await expect(excluded).toSendToast({
      type: "success",
      description: `Finetuning saved: ${site.base}/archive is left out of the answers of Admissions Assistant. A test run follows.`,
      link: { to: "/northfield/ai-finetuning/ai-finetuning", label: "Open AI Finetuning" },
      durationMs: 10_000,
    });
    expect(await finetuningRules()).toEqual([
      expect.objectContaining({ pattern: `^${site.base}/archive$`, penalty: 1 }),
    ]);
    // The transcript says what the rule does now, and a second click saves nothing.
    expect((await loadTranscript(deadline.conversation)).pageRules).toEqual({ [`^${site.base}/archive$`]: 1 });
    const twice = await correct(deadline.conversation, {
      intent: "finetune-page",
      message_id: String(deadline.answer),
      rank: String(archive.rank),
      weight: "exclude",
    });
    await expect(twice).toSendToast({
      type: "info",
      description: `${site.base}/archive is already left out of the answers of Admissions Assistant: nothing changed.`,
    });

    const history = await call("GET", `/v1/apps/${appId}/history?kind=finetuning`, { token: superToken });
    expect(history.body.data[0]).toMatchObject({ kind: "finetuning", user_email: "client.admin@example.com" });
    const runs = await call("GET", `/v1/apps/${appId}/test_runs?trigger_point=admissions`, { token: superToken });
    expect(runs.body.data.map((run: { trigger: string }) => run.trigger)).toContain("finetuning saved");

    // The rule acts: the same question asked again no longer retrieves the excluded page.
    const again = await ask(site.key, "When do applications for the fall semester close?");
    const retraced = (await loadTranscript(again.conversation)).conversation.messages[1].trace!;
    expect(retraced.passages.map((passage) => passage.url)).not.toContain(`${site.base}/archive`);
    // … and its trace says the rule left the page out of the answer's candidates.
    expect(retraced.left_out).toEqual({
      rules: [
        {
          type: "url_pattern",
          pattern: `^${site.base}/archive$`,
          penalty: 1,
          pages: [`${site.base}/archive`],
          more_pages: false,
        },
      ],
      more_rules: 0,
    });
  });

  it("refuses a weight it does not offer (400) and a page the trace does not hold (404)", async () => {
    expect(
      (
        await correct(deadline.conversation, {
          intent: "finetune-page",
          message_id: String(deadline.answer),
          rank: "1",
          weight: "heavier",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await correct(deadline.conversation, {
          intent: "finetune-page",
          message_id: String(deadline.answer),
          rank: "99",
          weight: "lower",
        })
      ).status,
    ).toBe(404);
  });

  it("marks an answer reviewed and not reviewed, which the list filters on", async () => {
    const review = (reviewed: string) =>
      correct(deadline.conversation, { intent: "review", message_id: String(deadline.answer), reviewed });
    const marked = await review("true");
    expect(marked).toHaveRedirect(`${AGENT}/${deadline.conversation}#answer-${deadline.answer}-review`);
    await expect(marked).toSendToast({ type: "success", description: "Marked reviewed" });
    expect((await loadTranscript(deadline.conversation)).conversation.messages[1].reviewed).toBe(true);
    expect(ids(await loadList(`${AGENT}?reviewed=true`))).toEqual([deadline.conversation]);
    await expect(await review("false")).toSendToast({ type: "success", description: "Marked not reviewed" });
    expect(ids(await loadList(`${AGENT}?reviewed=true`))).toEqual([]);
    expect((await review("maybe")).status).toBe(400);
  });

  it("keeps the list's filters in the address a correction comes back to", async () => {
    const filtered = `${AGENT}/${deadline.conversation}?rating=down&reviewed=false`;
    const marked = await settle(() =>
      agentTranscript.action(
        args(
          formRequest(filtered, { intent: "review", message_id: String(deadline.answer), reviewed: "true" }, admin),
          { ...agentParams, conversationId: deadline.conversation },
        ),
      ),
    );
    expect(marked).toHaveRedirect(`${filtered}#answer-${deadline.answer}-review`);
    // What the address carries comes back encoded: a NUL byte is %00, not a broken header.
    const hostile = `${AGENT}/${deadline.conversation}?search=%00%0D%0ASet-Cookie:x`;
    const again = await settle(() =>
      agentTranscript.action(
        args(formRequest(hostile, { intent: "review", message_id: String(deadline.answer), reviewed: "true" }, admin), {
          ...agentParams,
          conversationId: deadline.conversation,
        }),
      ),
    );
    expect(again).toHaveRedirect(`${hostile}#answer-${deadline.answer}-review`);
    await correct(deadline.conversation, { intent: "review", message_id: String(deadline.answer), reviewed: "false" });
  });

  it("refuses a read-only user every correction with 403, and shows them no forms", async () => {
    expect((await loadTranscript(deadline.conversation, viewer)).canCorrect).toBe(false);
    const posts: Record<string, string>[] = [
      { intent: "add-test-question", message_id: String(deadline.answer), question: "Q?", expect_outcome: "answered" },
      { intent: "finetune-page", message_id: String(deadline.answer), rank: "1", weight: "exclude" },
      { intent: "review", message_id: String(deadline.answer), reviewed: "true" },
    ];
    for (const fields of posts)
      expect((await correct(deadline.conversation, fields, viewer)).status, fields.intent).toBe(403);
    expect((await loadTranscript(deadline.conversation)).conversation.messages[1].reviewed).toBe(false);
  });

  it("answers what no form sends: an unknown intent 400, a question or another conversation's answer, another client's conversation 404", async () => {
    expect(
      (await correct(deadline.conversation, { intent: "delete", message_id: String(deadline.answer) })).status,
    ).toBe(400);
    const question = deadline.answer - 1;
    for (const messageId of [String(question), String(lab.answer), "abc", "99999999999"]) {
      expect(
        (await correct(deadline.conversation, { intent: "review", message_id: messageId, reviewed: "true" })).status,
        messageId,
      ).toBe(404);
    }
    expect(
      (await correct(harbor.conversation, { intent: "review", message_id: String(harbor.answer), reviewed: "true" }))
        .status,
    ).toBe(404);
    expect(
      (await correct(lab.conversation, { intent: "review", message_id: String(lab.answer), reviewed: "true" })).status,
    ).toBe(404);
    expect(
      (
        await correct(deadlineFallback.conversation, {
          intent: "review",
          message_id: String(deadlineFallback.answer),
          reviewed: "true",
        })
      ).status,
    ).toBe(302);
  });
});

describe("a test question made from a message longer than a test question may be", () => {
  it("is prefilled with the words that were searched, which the API takes", async () => {
    const story = Array.from(
      { length: 12 },
      (_, n) =>
        `My daughter visited campus on day ${n + 1} with her friends and we walked around the library together.`,
    ).join(" ");
    // A question of its own: another test of this file adds the plain one as a test question.
    const message = `${story} When do applications for the fall semester close each year?`;
    expect(message.length).toBeGreaterThan(1000);
    const asked = await ask(site.key, message);
    const answer = (await loadTranscript(asked.conversation)).conversation.messages[1];
    // The whole message would be refused as a test question; what retrieval searched is what it asks.
    expect(answer.trace!.searched).toBe("When do applications for the fall semester close each year?");
    expect(answer.question).toBe("When do applications for the fall semester close each year?");
    const added = await correct(asked.conversation, {
      intent: "add-test-question",
      message_id: String(asked.answer),
      question: answer.question!,
      expect_outcome: "answered",
      expect_source: "",
      expect_source_typed: "",
    });
    expect(added).toHaveRedirect(`${AGENT}/${asked.conversation}#answer-${asked.answer}-test-question`);
  });
});

describe("a test question made from an answer rated unhelpful", () => {
  it("is refused beside the expected source while it would pass on that answer, keeping what was typed", async () => {
    const rated = await ask(site.key, "When do fall semester applications close?");
    expect(rated.outcome).toBe("answered");
    const feedback = await feedbackCall(
      site.host.api,
      { key: site.key, answer: rated, rating: "down" },
      "203.0.113.51",
    );
    expect(feedback.status).toBe(200);
    const prefilled = {
      intent: "add-test-question",
      message_id: String(rated.answer),
      question: "When do fall semester applications close?",
      expect_outcome: "answered",
      expect_source: "",
      expect_source_typed: "",
      expect_text: "",
    };
    const refused = await correct(rated.conversation, prefilled);
    expect(refused.status).toBe(400);
    const data = await refused.json();
    expect(data.values).toEqual({
      question: prefilled.question,
      expect_outcome: "answered",
      expect_source: "",
      expect_source_typed: "",
      expect_text: "",
    });
    expect(data.fieldErrors).toEqual({
      expect_source: [
        "The answer rated unhelpful would pass this test: choose the source a right answer cites, or type a text it must contain",
      ],
    });
    // A text the rated answer does not hold makes it one that fails on it.
    const added = await correct(rated.conversation, { ...prefilled, expect_text: "closed on March 1" });
    expect(added).toHaveRedirect(`${AGENT}/${rated.conversation}#answer-${rated.answer}-test-question`);
    const listed = await admissionsTestQuestions();
    expect(listed.questions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          question: prefilled.question,
          expect_text: "closed on March 1",
          expect_outcome: "answered",
        }),
      ]),
    );
  });
});

describe("a test question made from a conversation under a trigger point of no agent, written in another script", () => {
  it("answers with a toast leading to that trigger point's Test Questions, however long its address", async () => {
    // The longest trigger point a client may list, in a script each of whose characters takes nine
    // once the address encodes it.
    const triggerPoint = "留学生の入学案内".repeat(13).slice(0, 100);
    const current = (await call("GET", "/v1/apps", { token: superToken })).body.apps.find(
      (app: { id: number }) => app.id === appId,
    );
    const { agents: _agents, id: _id, ...fields } = current;
    const listed = await call("PUT", `/v1/apps/${appId}`, {
      token: superToken,
      body: { ...fields, trigger_points: [...fields.trigger_points, triggerPoint] },
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const asked = await ask(site.key, "When do applications for the fall semester close?", { triggerPoint });
    expect(asked.outcome).toBe("answered");

    const added = await settle(() =>
      clientTranscript.action(
        args(
          formRequest(
            `${CLIENT}/${asked.conversation}`,
            {
              intent: "add-test-question",
              message_id: String(asked.answer),
              question: "When do applications for the fall semester close?",
              expect_outcome: "answered",
              expect_source: "",
              expect_source_typed: "",
            },
            admin,
          ),
          { appName: "northfield", conversationId: asked.conversation },
        ),
      ),
    );
    expect(added).toHaveRedirect(`${CLIENT}/${asked.conversation}#answer-${asked.answer}-test-question`);
    const to = `/northfield/controls/test-questions?${new URLSearchParams({ trigger_point: triggerPoint })}`;
    expect(to.length).toBeGreaterThan(500);
    await expect(added).toSendToast({
      type: "success",
      description: "Test question added: it runs with the agent's next test run.",
      link: { to, label: "Open Test Questions" },
      durationMs: 10_000,
    });
  });
});
