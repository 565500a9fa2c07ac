import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { oneOf } from "@contract/values/common";
import { DEFAULT_TRIGGER_POINT, QUALITY_CHECK } from "@contract/values/controls";
import { CONVERSATION_SORT_LABELS, CONVERSATION_SORTS } from "@contract/values/conversations";
import { INSIGHT_ENVIRONMENT_LABELS, INSIGHT_ENVIRONMENTS } from "@contract/values/insights";
import {
  ConversationsQuery,
  type ClientApp,
  type ConversationDetail,
  type ConversationMessage,
  type ConversationRow,
} from "@contract";
import type { TopicScreens } from "~/components/conversations/WhyThisAnswer";
import { agentSegment } from "~/lib/clients";
import { qualitySettingsOf } from "~/lib/controls.schema";
import {
  CONVERSATION_FILTERS,
  CONVERSATIONS_EXPORT_MAX_ROWS,
  conversationsCsv,
  CORRECTION_ANCHORS,
  DEFAULT_CONVERSATION_PAGE_SIZE,
  expectedSourceOf,
  filterValuesOf,
  isPagePenalty,
  LEAD_FILTER_LABELS,
  pageRuleOf,
  pageRulesNow,
  pageSizeChoices,
  passageSource,
  RATING_FILTER_LABELS,
  REVIEWED_FILTER_LABELS,
  type ConversationFilter,
  type TestQuestionFromAnswer,
} from "~/lib/conversations";
import { userCan } from "~/lib/permissions";
import {
  controlsPathFor,
  finetuningPathFor,
  filesPathFor,
  knowledgeStorePathFor,
  testQuestionsPathFor,
  triggerPointName,
} from "~/lib/trigger-points";
import { readPageParam, searchableText } from "~/lib/query-params";
import { shownInPlace, type ApiClient } from "./api/client.server";
import { controlsApi } from "./api/controls-api.server";
import { conversationsApi } from "./api/conversations-api.server";
import { getUserInfo } from "./api/users-api.server";
import { testingApi } from "./api/testing-api.server";
import { tuningApi } from "./api/tuning-api.server";
import { invariantResponse, requireAgentOf, requireClient } from "./clients.server";
import { consoleContext } from "./context.server";
import { readForm } from "./http/form-data.server";
import { textOf } from "./http/form-fields.server";
import { pageShown } from "./list-page.server";
import { loadOrError, requireConfigure } from "./permissions.server";
import { redirectWithToast } from "./toast.server";

/*
 * The Conversations screens, under an agent (its trigger point's conversations) and for the whole
 * client: the list with its filters in the address, its CSV, one conversation's transcript with
 * the trace of each answer, and the corrections an operator makes from an answer.
 */

type Args = LoaderFunctionArgs | ActionFunctionArgs;

/** Conversations ids are UUIDs: anything else names no conversation, and is not worth asking the API about. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONVERSATION_NOT_FOUND = "Conversation not found";
/** An export reads pages of a thousand, up to CONVERSATIONS_EXPORT_MAX_ROWS conversations a file. */
const EXPORT_PAGE_SIZE = 1000;

interface ConversationsScope {
  api: ApiClient;
  app: ClientApp;
  /** The agent of an agent-level address; null for the client's list. */
  agent: ClientApp["agents"][number] | null;
  /** The list's own address, where the transcripts hang. */
  listPath: string;
}

/**
 * The client (and under /agent/, the agent) of a Conversations address. Actions run without the
 * parent loaders, so the agent is checked here too.
 */
async function conversationsScope({ request, context, params }: Args): Promise<ConversationsScope> {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const agent = params.agentName === undefined ? null : requireAgentOf(app, new URL(request.url).pathname);
  const listPath = agent
    ? `/${app.url_code}/agent/${encodeURIComponent(agentSegment(agent))}/conversations`
    : `/${app.url_code}/conversations`;
  return { api, app, agent, listPath };
}

const screenData = ({ app, agent, listPath }: ConversationsScope) => ({
  client: { id: app.id, name: app.client_name, urlCode: app.url_code },
  agent: agent ? { name: agent.name, triggerPoint: agent.site_code } : null,
  // The client-wide screens name each row's trigger point by its agent.
  agentNames: agent ? {} : Object.fromEntries(app.agents.map((each) => [each.site_code, each.name])),
  listPath,
});

/** What the screen says of rows per page it does not offer (an address typed by hand). */
export const ROWS_PER_PAGE_MESSAGE = `Choose ${oneOf(pageSizeChoices(""))} rows per page`;

/**
 * What the screen says of a value its lists do not offer (an address typed by hand or edited), in
 * the lists' own words: the API's messages name its values ("most_questions"), not what a person chose.
 */
const CHOICE_MESSAGES: Partial<Record<ConversationFilter, string>> = {
  page_size: ROWS_PER_PAGE_MESSAGE,
  environment: `Choose ${oneOf(INSIGHT_ENVIRONMENTS.map((env) => INSIGHT_ENVIRONMENT_LABELS[env]))}`,
  outcome: "Choose an outcome from the list",
  rating: `Choose ${oneOf(Object.values(RATING_FILTER_LABELS))}, or any rating`,
  lead: `Choose ${oneOf(Object.values(LEAD_FILTER_LABELS))}, or either`,
  reviewed: `Choose ${oneOf(Object.values(REVIEWED_FILTER_LABELS))}, or either`,
  sort: `Choose ${oneOf(CONVERSATION_SORTS.map((sort) => CONVERSATION_SORT_LABELS[sort]))}`,
};

// ── The list ─────────────────────────────────────────────────────────────────────────────────────

/**
 * The address's filters checked with the contract's own rules (those the API applies), so that a
 * refused one is said next to its field rather than as an error page. The page is read leniently:
 * the list shows the last page for one past it.
 */
export function readConversationFilters(params: URLSearchParams) {
  const values = filterValuesOf(params);
  const page = readPageParam(params.get("page"));
  const parsed = ConversationsQuery.safeParse({
    ...values,
    search: searchableText(values.search),
    page,
    // The screen's tables page by 10 (spec section 9) where the API's own default is 25.
    page_size: values.page_size || String(DEFAULT_CONVERSATION_PAGE_SIZE),
  });
  const fieldErrors: Partial<Record<ConversationFilter, string[]>> = {};
  if (parsed.success) return { values, page, query: parsed.data, fieldErrors };
  for (const issue of parsed.error.issues) {
    const [name] = issue.path;
    // Every rule of the query is about one filter (the dates' order is said beside the start date).
    const field = CONVERSATION_FILTERS.find((filter) => filter === name) ?? "search";
    // A field's first message says what to fix ("Dates are YYYY-MM-DD"); the ones after it follow from it.
    // A list's value is said as the screen offers it, not as the API's parameter.
    fieldErrors[field] ??= [CHOICE_MESSAGES[field] ?? issue.message];
  }
  return { values, page, query: null, fieldErrors };
}

/** The list's query, as the address's filters read into it. */
type ListQuery = NonNullable<ReturnType<typeof readConversationFilters>["query"]>;

/** The filtered conversations of the page asked for, or past the end those of the last page (pageShown). */
async function conversationsPageShown(scope: ConversationsScope, query: ListQuery) {
  const listAt = (page: number) =>
    loadOrError(() =>
      conversationsApi.list(scope.api, scope.app.id, { ...query, page, trigger_point: scope.agent?.site_code }),
    );
  return pageShown(query.page, query.page_size, await listAt(query.page), listAt);
}

/** The list: one page of the filtered conversations, latest first unless sorted otherwise. */
export async function loadConversations(args: LoaderFunctionArgs) {
  const scope = await conversationsScope(args);
  const { values, page, query, fieldErrors } = readConversationFilters(new URL(args.request.url).searchParams);
  const pageSize = query?.page_size ?? DEFAULT_CONVERSATION_PAGE_SIZE;
  // Refused filters are not sent: the page says what to fix beside them instead of listing something else.
  const { listed, lastPage } = query
    ? await conversationsPageShown(scope, query)
    : { listed: { data: null, error: null }, lastPage: null };
  const conversations = listed.data?.data ?? [];
  const total = listed.data?.total ?? 0;
  const totalIsCapped = listed.data?.total_is_capped ?? false;
  const countedPages = Math.max(1, Math.ceil(total / pageSize));
  return json({
    ...screenData(scope),
    values,
    fieldErrors,
    conversations,
    total,
    totalIsCapped,
    page: lastPage ?? page,
    // Past the counted conversations the pages go on while they are full.
    totalPages: totalIsCapped
      ? Math.max(countedPages, page + (conversations.length === pageSize ? 1 : 0))
      : countedPages,
    filtersRefused: query === null,
    error: listed.error,
  });
}

/**
 * Every conversation the filters find (all pages), as a CSV download. Past `maxRows` the file holds
 * the first ones in the list's order and says so in its name, instead of stopping silently.
 */
export async function exportConversations(
  args: LoaderFunctionArgs,
  limits = { pageSize: EXPORT_PAGE_SIZE, maxRows: CONVERSATIONS_EXPORT_MAX_ROWS },
) {
  const scope = await conversationsScope(args);
  const { query, fieldErrors } = readConversationFilters(new URL(args.request.url).searchParams);
  if (!query)
    throw new Response(Object.values(fieldErrors).flat().join(" "), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  // From the first page whatever page the list was showing (its address's `page`).
  const listQuery = { ...query, trigger_point: scope.agent?.site_code, page: 1, page_size: limits.pageSize };
  // Read by keyset: each page goes on after the last row of the one before (next_after), so a
  // conversation started or deleted while the file is written neither repeats nor skips a row, and
  // no page recounts the ones before it. Up to the limit; a further page means the file is cut.
  const rows: ConversationRow[] = [];
  let after: string | undefined;
  do {
    const { data, next_after } = await conversationsApi.list(scope.api, scope.app.id, { ...listQuery, after });
    rows.push(...data);
    after = next_after ?? undefined;
  } while (after !== undefined && rows.length < limits.maxRows);
  const cut =
    rows.length > limits.maxRows || after !== undefined ? `-first-${Math.min(rows.length, limits.maxRows)}` : "";
  rows.length = Math.min(rows.length, limits.maxRows);
  const who = scope.agent ? `-${agentSegment(scope.agent)}` : "";
  const name = `${scope.app.url_code}${who}-conversations-${new Date().toISOString().slice(0, 10)}${cut}.csv`.replace(
    /[^\w.-]+/g,
    "_",
  );
  return new Response(conversationsCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}

// ── One conversation ─────────────────────────────────────────────────────────────────────────────

/**
 * The conversation the address names, when this scope may show it: the API answers 404 for
 * another client's, and an agent's screens show only what its trigger point was asked.
 */
async function requireConversation(
  scope: ConversationsScope,
  conversationId: string | undefined,
): Promise<ConversationDetail> {
  invariantResponse(conversationId && UUID.test(conversationId), CONVERSATION_NOT_FOUND);
  const conversation = await conversationsApi.detail(scope.api, scope.app.id, conversationId);
  invariantResponse(!scope.agent || conversation.trigger_point === scope.agent.site_code, CONVERSATION_NOT_FOUND);
  return conversation;
}

/** A transcript: every message with its time, each answer with its sources, rating, review and trace. */
export async function loadConversation(args: LoaderFunctionArgs) {
  const scope = await conversationsScope(args);
  const [conversation, me, rules] = await Promise.all([
    requireConversation(scope, args.params.conversationId),
    getUserInfo(scope.api),
    tuningApi.finetunings(scope.api, scope.app.id),
  ]);
  // The threshold the trigger point's answers are held to now, beside the one each trace recorded
  // (the Quality Check the trace links to shows this one); null when it cannot be read.
  const qualityCheck = await loadOrError(() =>
    controlsApi.list(scope.api, scope.app.id, conversation.trigger_point, [QUALITY_CHECK]),
  );
  return json({
    ...screenData(scope),
    conversation,
    canCorrect: userCan(me, "configure", scope.app.id),
    pageRules: pageRulesNow(rules, conversation.messages, conversation.trigger_point),
    thresholdNow: qualityCheck.data
      ? qualitySettingsOf(qualityCheck.data.controls.find((control) => control.internal_name === QUALITY_CHECK))
          .min_retrieval_confidence
      : null,
    testQuestionsPath: testQuestionsPathFor(scope.app, conversation.trigger_point),
    finetuningPath: finetuningPathFor(scope.app),
    qualityCheckPath: controlsPathFor(scope.app, conversation.trigger_point, "quality-check"),
    topicScreens: {
      no_go_topic: [
        controlsPathFor(scope.app, conversation.trigger_point, "no-go-topics"),
        controlsPathFor(scope.app, DEFAULT_TRIGGER_POINT, "no-go-topics"),
      ],
      sensitive_topic: [
        controlsPathFor(scope.app, conversation.trigger_point, "sensitive-topics"),
        controlsPathFor(scope.app, DEFAULT_TRIGGER_POINT, "sensitive-topics"),
      ],
    } satisfies TopicScreens,
    knowledgeStorePath: knowledgeStorePathFor(scope.app, conversation.trigger_point),
    filesPath: filesPathFor(scope.app, conversation.trigger_point),
  });
}

// ── Corrections from an answer ───────────────────────────────────────────────────────────────────

export const CORRECTION_INTENTS = ["add-test-question", "finetune-page", "review"] as const;
export type CorrectionIntent = (typeof CORRECTION_INTENTS)[number];

/** What a refused "Add as test question" answers: the form again, as typed, its messages beside the fields. */
export interface CorrectionActionData {
  intent: "add-test-question";
  messageId: number;
  values: TestQuestionFromAnswer;
  fieldErrors: Partial<Record<keyof TestQuestionFromAnswer, string[]>>;
  formError: string | null;
}

/**
 * Back to the control the correction was made with, the list's filters kept in the address (the
 * transcript's way back to the rows it was opened from).
 */
function correctionAddress(request: Request, anchor: string) {
  const { pathname, search } = new URL(request.url);
  return `${pathname}${search}#${anchor}`;
}

/** The API's refusals of a test question, by the form's fields; the rest is said above the form. */
function testQuestionRefused(error: unknown, messageId: number, values: TestQuestionFromAnswer) {
  if (!shownInPlace(error)) throw error;
  const fieldErrors: CorrectionActionData["fieldErrors"] = {};
  const formErrors: string[] = [];
  const sourceField = values.expect_source_typed.trim() ? "expect_source_typed" : "expect_source";
  const fieldOf: Record<string, keyof TestQuestionFromAnswer> = {
    question: "question",
    expect_outcome: "expect_outcome",
    expect_source: sourceField,
    expect_text: "expect_text",
  };
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const field = fieldOf[path];
    if (field) (fieldErrors[field] ??= []).push(...messages);
    else formErrors.push(...messages);
  }
  if (!Object.keys(fieldErrors).length && !formErrors.length) formErrors.push(error.message);
  return json<CorrectionActionData>(
    { intent: "add-test-question", messageId, values, fieldErrors, formError: formErrors.join(" ") || null },
    error.answerInit,
  );
}

async function addTestQuestion(
  scope: ConversationsScope,
  request: Request,
  conversation: ConversationDetail,
  answer: ConversationMessage,
  form: FormData,
) {
  const values: TestQuestionFromAnswer = {
    question: textOf(form, "question"),
    expect_outcome: textOf(form, "expect_outcome"),
    expect_source: textOf(form, "expect_source"),
    expect_source_typed: textOf(form, "expect_source_typed"),
    expect_text: textOf(form, "expect_text"),
  };
  try {
    await testingApi.add(scope.api, scope.app.id, {
      trigger_point: conversation.trigger_point,
      question: values.question,
      expect_source: expectedSourceOf(values),
      expect_text: values.expect_text,
      // A test made from an answer rated down must fail on it: the API checks it against that answer.
      from_answer: answer.id,
      // An outcome the contract does not know is the API's to refuse, beside the field.
      expect_outcome: (values.expect_outcome || null) as ConversationMessage["outcome"],
    });
  } catch (error) {
    return testQuestionRefused(error, answer.id, values);
  }
  return redirectWithToast(correctionAddress(request, CORRECTION_ANCHORS.testQuestion(answer.id)), {
    type: "success",
    description: "Test question added: it runs with the agent's next test run.",
    link: { to: testQuestionsPathFor(scope.app, conversation.trigger_point), label: "Open Test Questions" },
    durationMs: 10_000,
  });
}

/**
 * A finetuning rule for one passage's page, saved with the AI Finetuning screen's own call: the API
 * records it in History and queues the agent's test runs, as after any save.
 */
async function finetunePage(
  scope: ConversationsScope,
  request: Request,
  conversation: ConversationDetail,
  answer: ConversationMessage,
  form: FormData,
) {
  const weight = form.get("weight");
  if (!isPagePenalty(weight))
    throw new Response("Lower the page or exclude it", { status: 400, statusText: "Bad Request" });
  const rank = Number(form.get("rank"));
  const passage = answer.trace?.passages.find((candidate) => candidate.rank === rank);
  invariantResponse(passage && passageSource(passage), "This passage is not in the answer's trace");
  // Once the page's rule is what was asked, its row offers the other button only: the page comes
  // back to that one (the button used is gone), and to the one used while nothing was saved.
  const kept = weight === "exclude" ? "lower" : "exclude";
  const back = correctionAddress(request, CORRECTION_ANCHORS.finetune(answer.id, rank, kept));
  const backUnsaved = correctionAddress(request, CORRECTION_ANCHORS.finetune(answer.id, rank, weight));
  const rule = pageRuleOf(passage, conversation.trigger_point, weight);
  const agent = triggerPointName(scope.app, conversation.trigger_point);
  const change = weight === "exclude" ? "left out of" : `weighed down (penalty ${rule.penalty}) in`;
  // A second click, or a rule already there: nothing to save, and no test run to start.
  const now = pageRulesNow(await tuningApi.finetunings(scope.api, scope.app.id), [answer], conversation.trigger_point);
  if (rule.pattern !== undefined && now[rule.pattern] === rule.penalty)
    return redirectWithToast(back, {
      type: "info",
      description: `${passageSource(passage)} is already ${change} the answers of ${agent}: nothing changed.`,
    });
  try {
    await tuningApi.saveFinetunings(scope.api, scope.app.id, [rule]);
  } catch (error) {
    if (!shownInPlace(error)) throw error;
    return redirectWithToast(backUnsaved, { type: "error", description: `Error: ${error.reason}` });
  }
  return redirectWithToast(back, {
    type: "success",
    description: `Finetuning saved: ${passageSource(passage)} is ${change} the answers of ${agent}. A test run follows.`,
    link: { to: finetuningPathFor(scope.app), label: "Open AI Finetuning" },
    durationMs: 10_000,
  });
}

async function review(
  scope: ConversationsScope,
  request: Request,
  conversation: ConversationDetail,
  answer: ConversationMessage,
  form: FormData,
) {
  const reviewed = form.get("reviewed");
  if (reviewed !== "true" && reviewed !== "false")
    throw new Response("Mark the answer reviewed or not reviewed", { status: 400, statusText: "Bad Request" });
  const { message } = await conversationsApi.review(
    scope.api,
    scope.app.id,
    conversation.id,
    answer.id,
    reviewed === "true",
  );
  return redirectWithToast(correctionAddress(request, CORRECTION_ANCHORS.review(answer.id)), {
    type: "success",
    description: message,
  });
}

/**
 * The corrections made from an answer, one form each: a client user (who may only look) gets
 * 403 before anything is read; an answer not in this conversation is not found.
 */
export async function conversationAction(args: ActionFunctionArgs) {
  const scope = await conversationsScope(args);
  await requireConfigure(scope.api, scope.app.id);
  const form = await readForm(args.request);
  const intent = CORRECTION_INTENTS.find((name) => name === form.get("intent"));
  if (!intent)
    throw new Response("This form asks for something the conversation page does not do.", {
      status: 400,
      statusText: "Unknown intent",
    });
  const conversation = await requireConversation(scope, args.params.conversationId);
  const messageId = Number(form.get("message_id"));
  const answer = conversation.messages.find((message) => message.id === messageId && message.role === "assistant");
  invariantResponse(answer, "This answer is not in this conversation");
  switch (intent) {
    case "add-test-question":
      return addTestQuestion(scope, args.request, conversation, answer, form);
    case "finetune-page":
      return finetunePage(scope, args.request, conversation, answer, form);
    case "review":
      return review(scope, args.request, conversation, answer, form);
  }
}
