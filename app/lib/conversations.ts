// Plain values only: this module reaches the browser, where the contract's schemas must not.
import type {
  AnswerTrace,
  ConversationMessage,
  ConversationRow,
  Finetuning,
  FinetuningsUpsertBody,
  TracePassage,
} from "@contract";
import type { ChatOutcome } from "@contract/values/chat";
import { LIST_PAGE_SIZES, PENALTY_EXAMPLE } from "@contract/values/common";
import { CONVERSATION_SORTS, type AnswerRating } from "@contract/values/conversations";
import { INSIGHT_ENVIRONMENT_LABELS } from "@contract/values/insights";
import { toCsv } from "./csv";
import { DEFAULT_TABLE_PAGE_SIZE, TABLE_PAGE_SIZES } from "./table-view";
import { DEFAULT_TRIGGER_POINT_LABEL } from "./trigger-points";

/*
 * The Conversations screens' pure rules: the list's filters as the address holds them, how a
 * conversation and an answer read, and what the corrections made from an answer send.
 */

// ── The list's filters ───────────────────────────────────────────────────────────────────────────

/** Every filter of the list, as its address parameter (the page apart: it is no filter). */
export const CONVERSATION_FILTERS = [
  "from",
  "to",
  "environment",
  "outcome",
  "rating",
  "lead",
  "reviewed",
  "search",
  "sort",
  "page_size",
] as const;
export type ConversationFilter = (typeof CONVERSATION_FILTERS)[number];
/**
 * The list's own part of an address (its filters and page): a conversation opened from the list
 * carries it, so "← Conversations" goes back to the same rows (a review queue, say), not to all.
 */
export function listSearchOf(search: string): string {
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(search))
    if (value && ((CONVERSATION_FILTERS as readonly string[]).includes(name) || name === "page"))
      kept.append(name, value);
  const text = kept.toString();
  return text ? `?${text}` : "";
}

/** The filters as typed in the address: kept as they are, even when refused, so the form shows them again. */
export type ConversationFilterValues = Record<ConversationFilter, string>;

export function filterValuesOf(params: URLSearchParams): ConversationFilterValues {
  return Object.fromEntries(
    CONVERSATION_FILTERS.map((name) => [name, params.get(name) ?? ""]),
  ) as ConversationFilterValues;
}

/** A conversation's transcript on the client's Conversations screen. */
export const transcriptPathOf = (urlCode: string, conversationId: string) =>
  `/${urlCode}/conversations/${conversationId}`;
/** What a visitor said of themselves, in the User Profile Store (a profile is its conversation's). */
export const profilePathOf = (urlCode: string, conversationId: string) =>
  `/backoffice/${urlCode}/user_profiles?profile=${conversationId}`;

/**
 * Whether the filters leave any conversation out (the sort and the page size only order and cut the
 * list, and every environment is all of them: the form sends it with every filter).
 */
export const narrowsList = (values: ConversationFilterValues) =>
  CONVERSATION_FILTERS.some(
    (name) =>
      name !== "sort" &&
      name !== "page_size" &&
      values[name].trim() !== "" &&
      !(name === "environment" && values[name] === "all"),
  );

/**
 * Rows per page offered on the screen: every table's sizes (spec section 9), and a size the
 * address asks for that the API also serves (a link made when the list paged by 25) kept as a
 * choice, so the form shows what the table shows.
 */
export function pageSizeChoices(current: string): number[] {
  const asked = Number(current);
  const choices: number[] = [...TABLE_PAGE_SIZES];
  if (current && !choices.includes(asked) && (LIST_PAGE_SIZES as readonly number[]).includes(asked))
    return [...choices, asked].sort((a, b) => a - b);
  return choices;
}

export const DEFAULT_CONVERSATION_PAGE_SIZE = DEFAULT_TABLE_PAGE_SIZE;

/**
 * The list's address once its filters are cleared: the sort and the rows per page stay as chosen
 * (they leave no conversation out), when the screen offers them and they are not the defaults.
 */
export function clearedFiltersSearch(values: ConversationFilterValues): string {
  const kept = new URLSearchParams();
  if ((CONVERSATION_SORTS as readonly string[]).includes(values.sort) && values.sort !== CONVERSATION_SORTS[0])
    kept.set("sort", values.sort);
  const size = Number(values.page_size);
  if (pageSizeChoices(values.page_size).includes(size) && size !== DEFAULT_CONVERSATION_PAGE_SIZE)
    kept.set("page_size", values.page_size);
  const text = kept.toString();
  return text ? `?${text}` : "";
}

/** The most conversations one Export CSV holds: past it the file holds the first ones and says so in its name. */
export const CONVERSATIONS_EXPORT_MAX_ROWS = 100_000;

/**
 * How many conversations the filters match, as the list says it: a count the API stopped at is "more
 * than" it, and then the export's own limit is worth knowing before the file is asked for.
 */
export function matchedText(total: number, totalIsCapped: boolean) {
  const count = `${total.toLocaleString("en-US")} conversation${total === 1 ? " matches" : "s match"} these filters.`;
  if (!totalIsCapped) return count;
  return `More than ${count} Export CSV holds up to ${CONVERSATIONS_EXPORT_MAX_ROWS.toLocaleString("en-US")} of them.`;
}

export const RATING_FILTER_LABELS = { up: "Rated helpful", down: "Rated unhelpful", unrated: "Not rated" } as const;
export const LEAD_FILTER_LABELS = { true: "Lead captured", false: "No lead" } as const;
export const REVIEWED_FILTER_LABELS = { true: "Reviewed", false: "Not reviewed" } as const;

// ── How a conversation reads ─────────────────────────────────────────────────────────────────────

/** A conversation's ratings in one word (null: no answer rated). */
export const CONVERSATION_RATING_LABELS = { up: "Helpful", down: "Unhelpful", mixed: "Mixed" } as const;
export const NOT_RATED_LABEL = "Not rated";

/** A conversation's environment as the screens name it: Sandbox or Production. */
export const environmentLabel = (environment: string) =>
  INSIGHT_ENVIRONMENT_LABELS[environment as "prod" | "stage"] ?? environment;
/** The visitor's thumbs on one answer. */
export const ANSWER_RATING_LABELS: Record<AnswerRating, string> = { up: "Rated helpful", down: "Rated unhelpful" };

/** The outcomes in the list's chips, shortest first-word form. */
export const OUTCOME_CHIP_LABELS: Record<ChatOutcome, string> = {
  answered: "answered",
  fallback: "fallback",
  canned: "canned",
  disclaimed: "disclaimed",
  small_talk: "small talk",
};
/** An outcome as a chip names it; a value this console does not know, as it was stored. */
export const outcomeChipLabel = (outcome: string) =>
  (OUTCOME_CHIP_LABELS as Record<string, string | undefined>)[outcome] ?? outcome;

export const OUTCOME_TONES: Record<ChatOutcome, "success" | "warning" | "error" | "info"> = {
  answered: "success",
  fallback: "warning",
  canned: "error",
  disclaimed: "info",
  small_talk: "info",
};

export const triggerPointLabel = (triggerPoint: string) => triggerPoint || DEFAULT_TRIGGER_POINT_LABEL;

/**
 * A trigger point as the client-wide Conversations screens show it: its agent's name with its code
 * ("Admissions Assistant (admissions)"), as the agent's own list names it; "Default", or the code
 * alone for a trigger point no agent answers on.
 */
export const triggerPointWithAgent = (triggerPoint: string, agentNames: Record<string, string>) =>
  Object.hasOwn(agentNames, triggerPoint)
    ? `${agentNames[triggerPoint]} (${triggerPoint})`
    : triggerPointLabel(triggerPoint);

/** A passage's place in its page: its headings, outermost first. */
export const headingPathText = (path: readonly string[]) => path.join(" › ");

/** The page or file a passage was quoted from, as an expected source or a rule's pattern names it. */
export const passageSource = (passage: Pick<TracePassage, "url" | "file_name">) =>
  passage.url ?? passage.file_name ?? "";

/** The distinct pages and files of a trace, in retrieval's order: what an expected source is chosen from. */
export function traceSources(trace: AnswerTrace | null): { value: string; label: string }[] {
  const seen = new Set<string>();
  const sources: { value: string; label: string }[] = [];
  for (const passage of trace?.passages ?? []) {
    const value = passageSource(passage);
    if (!value || seen.has(value)) continue;
    seen.add(value);
    sources.push({ value, label: passage.title && passage.title !== value ? `${passage.title} (${value})` : value });
  }
  return sources;
}

// ── Corrections made from an answer ──────────────────────────────────────────────────────────────

/** The fields of "Add as test question", as typed (what comes back with a refusal). */
export interface TestQuestionFromAnswer {
  question: string;
  expect_outcome: string;
  /** Chosen among the trace's pages and files … */
  expect_source: string;
  /** … or typed, which wins when filled. */
  expect_source_typed: string;
  /** Words the answer must contain. */
  expect_text: string;
}

/**
 * A follow-up as a test question: a run asks each question on its own, so "How much does it cost?"
 * would lack what "it" was. It is prefixed with the question it was searched with, as a sentence.
 */
function standingAlone(question: string, followUpOf: string | undefined) {
  if (!followUpOf) return question;
  const before = followUpOf.trim();
  return `${/[.?!]["'”’)]*$/.test(before) ? before : `${before}.`} ${question}`;
}

/**
 * The form as an answer prefills it: its question (a follow-up with the question it leaned on); the outcome it had, except that a fallback
 * expects an answer (a test made from a gap is one that passes once the gap is filled, as Insights'
 * "Add as test question" makes it); and as the expected source the first page it quoted, unless the
 * visitor rated the answer unhelpful (its source is not the one to lock in). A fallback quoted nothing.
 */
export function testQuestionFromAnswer(
  answer: Pick<ConversationMessage, "question" | "outcome" | "trace" | "rating">,
): TestQuestionFromAnswer {
  const quoted = answer.rating === "down" ? undefined : answer.trace?.passages.find((passage) => passage.used);
  return {
    question: standingAlone(answer.question ?? "", answer.trace?.follow_up),
    expect_outcome: answer.outcome === "fallback" ? "answered" : (answer.outcome ?? ""),
    expect_source: quoted ? passageSource(quoted) : "",
    expect_source_typed: "",
    expect_text: "",
  };
}

/** The expected source the form says: the typed one, else the one chosen, else none. */
export const expectedSourceOf = (values: TestQuestionFromAnswer) =>
  values.expect_source_typed.trim() || values.expect_source.trim() || null;

/** What the two buttons of a passage set its page's penalty to: weighed down by half, or left out of retrieval. */
export const PAGE_PENALTIES = { lower: PENALTY_EXAMPLE, exclude: 1 } as const;
export type PagePenalty = keyof typeof PAGE_PENALTIES;
export const isPagePenalty = (value: unknown): value is PagePenalty => value === "lower" || value === "exclude";

/** The longest pattern a finetuning rule takes (the contract's). */
const PATTERN_MAX_CHARS = 500;

/**
 * The finetuning rule that lowers or excludes a passage's page for the trigger point that
 * answered: a URL pattern naming that page alone (a file's name for an uploaded file). Rules match
 * a pattern anywhere in the address, so the page's address is tied to both ends (`^…$`): a site's
 * home page is a part of every address under it, and the bare address would lower the whole site.
 * An address too long for a rule is cut to the rule's length, without the ties, and still names it.
 */
export function pageRuleOf(
  passage: Pick<TracePassage, "url" | "file_name">,
  triggerPoint: string,
  penalty: PagePenalty,
): FinetuningsUpsertBody["finetunings"][number] {
  const source = passageSource(passage);
  return {
    trigger_point: triggerPoint,
    finetuning_type: passage.url ? "url_pattern" : "pdf_weightage",
    pattern: source.length + 2 <= PATTERN_MAX_CHARS ? `^${source}$` : source.slice(0, PATTERN_MAX_CHARS),
    penalty: PAGE_PENALTIES[penalty],
  };
}

/**
 * The penalties AI Finetuning gives now to the pages of a conversation's traces, by the pattern
 * "Lower" and "Exclude" write for them (`pageRuleOf`), for the conversation's trigger point: what
 * each passage's buttons say is already so.
 */
export function pageRulesNow(
  rules: readonly Pick<Finetuning, "trigger_point" | "finetuning_type" | "pattern" | "penalty">[],
  messages: readonly Pick<ConversationMessage, "trace">[],
  triggerPoint: string,
): Record<string, number> {
  // Each page's pattern, with the kind of rule a button writes for it (a web page's or a file's).
  const kindOf = new Map(
    messages.flatMap((message) =>
      (message.trace?.passages ?? []).flatMap((passage) => {
        if (!passageSource(passage)) return [];
        const rule = pageRuleOf(passage, triggerPoint, "lower");
        return [[rule.pattern, rule.finetuning_type] as const];
      }),
    ),
  );
  const now: Record<string, number> = {};
  for (const rule of rules)
    if (
      rule.trigger_point === triggerPoint &&
      rule.penalty !== null &&
      kindOf.get(rule.pattern) === rule.finetuning_type
    )
      now[rule.pattern] = rule.penalty;
  return now;
}

// ── Export ───────────────────────────────────────────────────────────────────────────────────────

export const CONVERSATIONS_CSV_HEADER = [
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
] as const;

export function conversationsCsv(rows: readonly ConversationRow[]) {
  return toCsv([
    CONVERSATIONS_CSV_HEADER,
    ...rows.map((row) => [
      row.started_at,
      environmentLabel(row.environment),
      triggerPointLabel(row.trigger_point),
      row.questions,
      row.last_question,
      row.outcomes.answered,
      row.outcomes.fallback,
      row.outcomes.canned,
      row.outcomes.disclaimed,
      row.outcomes.small_talk,
      row.rating ? CONVERSATION_RATING_LABELS[row.rating] : NOT_RATED_LABEL,
      row.lead ? "yes" : "no",
      row.reviewed ? "yes" : "no",
      row.id,
    ]),
  ]);
}

/**
 * The controls a correction is made with, by answer: the page comes back to the one that was
 * used (its address's fragment), so the keyboard and the eye stay where the operator was.
 */
export const CORRECTION_ANCHORS = {
  review: (answerId: number) => `answer-${answerId}-review`,
  testQuestion: (answerId: number) => `answer-${answerId}-test-question`,
  finetune: (answerId: number, rank: number, weight: PagePenalty) => `answer-${answerId}-${weight}-${rank}`,
};
