import { z } from "zod";
import { blankIsAbsent, IsoDay, pageNumber } from "./common";
import { Cursor } from "./cursor";
import { LIST_PAGE_SIZES, oneOf } from "./values/common";
import { CHAT_OUTCOMES } from "./values/chat";
import {
  ANSWER_RATINGS,
  CONVERSATION_RATING_FILTERS,
  CONVERSATION_RATINGS,
  CONVERSATION_SEARCH_CHARS,
  CONVERSATION_SORTS,
  EVIDENCE_THRESHOLDS,
  FALLBACK_REASONS,
  FEEDBACK_COMMENT_MAX_CHARS,
  SMALL_TALK_KINDS,
  TRACE_CONTROL_TYPES,
  TRACE_FILE_NAME_CHARS,
  TRACE_MAX_FILES_NOT_TAGGED,
} from "./values/conversations";
import { INSIGHT_ENVIRONMENTS } from "./values/insights";
export * from "./values/conversations";

/*
 * Conversations: what the assistant told each visitor, the trace recorded when each answer was
 * given, the visitor's rating of it, and the operator's review (docs/decisions/028).
 */

const yesNo = (what: string) =>
  z.preprocess(blankIsAbsent, z.enum(["true", "false"], { error: `${what} must be true or false` }).optional());

export const ConversationsQuery = z
  .object({
    /** One trigger point ('' for Default), or every one when absent. */
    trigger_point: z.string().max(100, "Trigger points are at most 100 characters").optional(),
    environment: z.preprocess(
      blankIsAbsent,
      z.enum(INSIGHT_ENVIRONMENTS, { error: "environment must be all, prod or stage" }).default("all"),
    ),
    /**
     * Conversations with at least one answer of this outcome, or with a question of several in one
     * message that came out so (an answer that left one of three unanswered is found by fallback).
     */
    outcome: z.preprocess(
      blankIsAbsent,
      z.enum(CHAT_OUTCOMES, { error: `outcome must be one of ${CHAT_OUTCOMES.join(", ")}` }).optional(),
    ),
    rating: z.preprocess(
      blankIsAbsent,
      z.enum(CONVERSATION_RATING_FILTERS, { error: "rating must be up, down or unrated" }).optional(),
    ),
    lead: yesNo("lead"),
    reviewed: yesNo("reviewed"),
    /** Started on or after this UTC day … */
    from: z.preprocess(blankIsAbsent, IsoDay.optional()),
    /** … and on or before this one. */
    to: z.preprocess(blankIsAbsent, IsoDay.optional()),
    /**
     * Whole words of any message of the conversation, any case, all of them; in a script written
     * without spaces (and Korean), the text anywhere in a message.
     */
    search: z.preprocess(
      blankIsAbsent,
      z
        .string()
        .trim()
        .max(CONVERSATION_SEARCH_CHARS, `Search for at most ${CONVERSATION_SEARCH_CHARS} characters`)
        .optional(),
    ),
    sort: z.preprocess(
      blankIsAbsent,
      z.enum(CONVERSATION_SORTS, { error: `sort must be one of ${CONVERSATION_SORTS.join(", ")}` }).default("latest"),
    ),
    page: pageNumber(1),
    /**
     * Keyset paging: the page after the row this cursor (a previous page's `next_after`) names, in
     * the same sort; `page` is then not read and nothing is counted. No row is skipped or repeated
     * when conversations start or are deleted between the pages.
     */
    after: z.preprocess(blankIsAbsent, Cursor),
    page_size: z.preprocess(
      blankIsAbsent,
      z.coerce
        .number({ error: "The page size must be a number" })
        .int()
        .refine(
          (n) => (LIST_PAGE_SIZES as readonly number[]).includes(n),
          `page_size must be ${oneOf(LIST_PAGE_SIZES)}`,
        )
        .default(25),
    ),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: "The start date must be on or before the end date",
    path: ["from"],
  });
/** What a caller sends (page and page_size as numbers). */
export type ConversationsQuery = Omit<z.input<typeof ConversationsQuery>, "page" | "page_size"> & {
  page?: number;
  page_size?: number;
};

/**
 * How many of a conversation's answers came out each way; an answer of several questions counts
 * under each outcome its questions had too (answered and fallback when one of three went unanswered).
 */
export const OutcomeCounts = z.object({
  answered: z.number(),
  fallback: z.number(),
  canned: z.number(),
  disclaimed: z.number(),
  small_talk: z.number(),
});
export type OutcomeCounts = z.infer<typeof OutcomeCounts>;

export const ConversationRow = z.object({
  id: z.string(),
  started_at: z.string(),
  environment: z.string(),
  trigger_point: z.string(),
  /** The visitor's questions (small talk is none). */
  questions: z.number(),
  last_question: z.string(),
  outcomes: OutcomeCounts,
  /** up: only thumbs up; down: only thumbs down; mixed: both; null: no answer rated. */
  rating: z.enum(CONVERSATION_RATINGS).nullable(),
  /** An email or phone number was captured. */
  lead: z.boolean(),
  /** An operator marked an answer reviewed and no answer rated down waits for review. */
  /** An operator marked an answer of it reviewed, and no answer rated unhelpful waits for review. */
  reviewed: z.boolean(),
  /** Answers rated unhelpful that no operator has marked reviewed yet. */
  awaiting_review: z.number(),
});
export type ConversationRow = z.infer<typeof ConversationRow>;

/** Conversations are counted up to this many; past it, `total_is_capped` (the pages still go on). */
export const CONVERSATION_COUNT_CAP = 10_000;
/** A search's matches are counted up to this many: each is checked on its conversation's messages. */
export const SEARCH_COUNT_CAP = 1_000;
export const ConversationList = z.object({
  data: z.array(ConversationRow),
  /** The conversations the filters match, counted up to CONVERSATION_COUNT_CAP (SEARCH_COUNT_CAP with a search). */
  total: z.number(),
  /** On a page read with `after`, which is not counted: true (and total 0). */
  total_is_capped: z.boolean(),
  /** The cursor of the page after this one (for `after`); null on the last page. */
  next_after: z.string().nullable(),
});
export type ConversationList = z.infer<typeof ConversationList>;

export const TracePassage = z.object({
  /** The page's address, or null for an uploaded file … */
  url: z.string().nullable(),
  /** … whose name this is. */
  file_name: z.string().nullable(),
  /**
   * The uploaded file's id, whose chunks the console shows at `{files}/{id}/chunks`. Recorded with
   * the trace; the transcript answers it only while the file is still the client's, and for a trace
   * recorded before it was kept, reads it from the file of that name the client had then.
   */
  file_id: z.number().int().optional(),
  /** The uploaded file was deleted since the answer was given: only its name is left. */
  file_deleted: z.boolean().optional(),
  title: z.string(),
  heading_path: z.array(z.string()),
  /** When the page version (or file) quoted was indexed. */
  indexed_at: z.string().nullable(),
  /** The share of the question's key-word weight the passage holds, after finetuning penalties. */
  score: z.number(),
  /** 1 for the passage retrieval ranked first. */
  rank: z.number(),
  penalties: z.array(z.object({ type: z.string(), pattern: z.string(), penalty: z.number() })),
  /** It holds enough of the question for an answer to quote it. */
  passed: z.boolean(),
  /**
   * The answer's text was drawn from it: the passage whose sentences it quotes, or one a language
   * model cited as what it wrote from. In traces recorded before `listed` was (it is absent there),
   * `used` meant what `listed` means: a passage of the answer's sources, quoted or not.
   */
  used: z.boolean(),
  /**
   * Its page or file is among the answer's sources, as the widget lists them (a passage the answer
   * quotes always is; the others listed only go with it). Absent from traces recorded before it was.
   */
  listed: z.boolean().optional(),
  /** Its first TRACE_PASSAGE_CHARS characters. */
  text: z.string(),
  /** For a message that asked several questions (`parts`), the question (1, 2, …) it was retrieved for. */
  part: z.number().int().optional(),
  /** The question's key words it holds, as `key_words` names them. Absent from traces recorded before it was kept. */
  holds: z.array(z.string()).optional(),
});
export type TracePassage = z.infer<typeof TracePassage>;

/** An AI Finetuning rule of penalty 1 that kept pages holding the question's key words out of an answer's candidates. */
export const TraceLeftOut = z.object({
  type: z.string(),
  pattern: z.string(),
  penalty: z.number(),
  /** Pages (their addresses) or files (their names) it left out, at most TRACE_LEFT_OUT_PAGES … */
  pages: z.array(z.string()),
  /** … and whether it left out more. */
  more_pages: z.boolean(),
});
export type TraceLeftOut = z.infer<typeof TraceLeftOut>;

/**
 * A key word of the question as retrieval weighed it: the word as the visitor wrote it (lower case),
 * its share of the question's key-word weight (a passage's score is the sum of the shares it holds,
 * after penalties) and how many passages of the knowledge store held it then. A word no passage
 * holds is one the store does not cover.
 */
export const TraceKeyWord = z.object({
  word: z.string(),
  weight: z.number(),
  passages: z.number().int(),
  /** A word of the visitor's question before, searched with this one as a follow-up (it weighs less). */
  context: z.boolean().optional(),
  /**
   * The store held no such word, and it was read as the stored word it nearly is (a misspelling), or
   * as the store writes a code ("F1" as "F-1", "I-20" as "I20").
   */
  corrected: z.boolean().optional(),
  /** For a message that asked several questions (`parts`), the question (1, 2, …) it is of. */
  part: z.number().int().optional(),
});
export type TraceKeyWord = z.infer<typeof TraceKeyWord>;

/** Why an answer came out as it did, recorded when it was given and never recomputed. */
export const AnswerTrace = z.object({
  /** The Minimum Retrieval Confidence in force. */
  threshold: z.number(),
  /**
   * The chance that the answer is right, as the quality check estimated it and compared with the
   * threshold: what the threshold evidence replays. Absent from answers given before it was recorded.
   */
  confidence: z.number().optional(),
  /** The best passage's score (0 when retrieval found nothing). */
  top_score: z.number(),
  passages: z.array(TracePassage),
  /**
   * The question's key words, weightiest first (at most TRACE_MAX_KEY_WORDS). Absent when nothing
   * was searched, and from traces recorded before they were kept.
   */
  key_words: z.array(TraceKeyWord).optional(),
  /**
   * The controls that shaped the answer. A topic of Default's list that applied under another
   * trigger point says so (`from_default`), as it is edited on Default's screen; absent otherwise,
   * and from traces recorded before it was kept.
   */
  controls: z.array(
    z.object({ type: z.enum(TRACE_CONTROL_TYPES), name: z.string(), from_default: z.boolean().optional() }),
  ),
  /** A language model wrote the answer from the passages (else it quotes them). */
  model: z.boolean(),
  /**
   * Why the answer is the fallback message (only on a fallback). Absent from traces recorded before
   * it was: the screen reads the reason from what they hold (app/lib/answer-trace.ts).
   */
  fallback_reason: z.enum(FALLBACK_REASONS).optional(),
  /**
   * The rules that removed pages holding the question's key words before ranking (at most
   * TRACE_MAX_LEFT_OUT_RULES), and how many more did. Absent when none did, when retrieval did not
   * run, and from traces recorded before it was kept.
   */
  left_out: z.object({ rules: z.array(TraceLeftOut), more_rules: z.number() }).optional(),
  /**
   * The uploaded files (their names, at most TRACE_MAX_FILES_NOT_TAGGED) whose passages retrieval
   * found for the question and left out, as they are not tagged for the environment it was asked
   * in. Absent when none were, and from traces recorded before it was kept.
   */
  files_not_tagged: z.array(z.string().max(TRACE_FILE_NAME_CHARS)).max(TRACE_MAX_FILES_NOT_TAGGED).optional(),
  /**
   * What retrieval searched, when it was not the visitor's whole message: the message without the
   * name, email or phone number they gave with it, or, when that found nothing good enough, its
   * sentences that ask something.
   */
  searched: z.string().optional(),
  /**
   * The visitor's question before this one, when this one pointed back at it ("How much does it
   * cost?") and was searched with it. Absent for a question that stands on its own, and from traces
   * recorded before it was kept.
   */
  follow_up: z.string().optional(),
  /**
   * A message that asked several questions (sentences ending in a question mark), each searched and
   * answered on its own, in order: what each was, how it came out, the chance the quality check
   * estimated for it, and why it got no answer. The passages say which they were found for (`part`);
   * the answer has no chance of its own (`confidence` is absent), its parts have theirs.
   */
  parts: z
    .array(
      z.object({
        question: z.string(),
        outcome: z.enum(CHAT_OUTCOMES),
        confidence: z.number().optional(),
        fallback_reason: z.enum(FALLBACK_REASONS).optional(),
        /** The files left out of this question's search as not tagged for the environment. */
        files_not_tagged: z.array(z.string().max(TRACE_FILE_NAME_CHARS)).max(TRACE_MAX_FILES_NOT_TAGGED).optional(),
      }),
    )
    .optional(),
  /**
   * The programs the answer named as fitting the question, from the program profile data model
   * (not from a passage, and whatever the quality check said of the passages). Absent when it
   * named none, and from traces recorded before it was kept.
   */
  programs: z.array(z.string().max(300)).max(20).optional(),
  /** What the visitor's message was read as, when it asked nothing (outcome `small_talk`): nothing was searched. */
  small_talk: z.enum(SMALL_TALK_KINDS).optional(),
});
export type AnswerTrace = z.infer<typeof AnswerTrace>;

/**
 * A source of an answer as the transcript (and a test run's result) shows it: a web page's address,
 * or for an uploaded file a link signed when it is read (an hour long: the one the visitor was given
 * expires), and empty when the file was deleted since.
 */
export const ConversationSource = z.object({
  title: z.string(),
  url: z.string(),
  /** The uploaded file it is, while it is still one of the client's. */
  file_id: z.number().int().optional(),
  /** The uploaded file was deleted since the answer was given: there is no link. */
  file_deleted: z.boolean().optional(),
});
export type ConversationSource = z.infer<typeof ConversationSource>;

export const ConversationMessage = z.object({
  id: z.number(),
  role: z.enum(["user", "assistant"]),
  text: z.string(),
  at: z.string(),
  /** An answer's outcome; null for a question. */
  outcome: z.enum(CHAT_OUTCOMES).nullable(),
  sources: z.array(ConversationSource),
  rating: z.enum(ANSWER_RATINGS).nullable(),
  comment: z.string().nullable(),
  reviewed: z.boolean(),
  /**
   * The question this answer answered, without the name, email or phone number the visitor gave
   * with it; for a message longer than a test question may be, what retrieval searched of it (null
   * for a question).
   */
  question: z.string().nullable(),
  /** Null for a question, and for answers given before traces were recorded. */
  trace: AnswerTrace.nullable(),
});
export type ConversationMessage = z.infer<typeof ConversationMessage>;

export const ConversationDetail = z.object({
  id: z.string(),
  started_at: z.string(),
  environment: z.string(),
  trigger_point: z.string(),
  /** The visitor's questions, as the list and Insights count them: small talk is not one. */
  questions: z.number().int(),
  lead: z.boolean(),
  messages: z.array(ConversationMessage),
});
export type ConversationDetail = z.infer<typeof ConversationDetail>;

export const ReviewBody = z.object({ reviewed: z.boolean({ error: "reviewed must be true or false" }) });
export const ReviewResult = z.object({ message: z.string(), reviewed: z.boolean() });
export type ReviewResult = z.infer<typeof ReviewResult>;

export const FeedbackRequest = z.object({
  key: z
    .string({ error: "The embed key is missing" })
    .min(10, "The embed key is not valid")
    .max(100, "The embed key is not valid"),
  conversation_id: z.uuid({ error: "Not a conversation id" }),
  message_id: z
    .number({ error: "Not a message id" })
    .int("Not a message id")
    .positive("Not a message id")
    .max(2_147_483_647, "Not a message id"),
  rating: z.enum(ANSWER_RATINGS, { error: "rating must be up or down" }),
  comment: z
    .string()
    .trim()
    .max(FEEDBACK_COMMENT_MAX_CHARS, `Keep comments to at most ${FEEDBACK_COMMENT_MAX_CHARS} characters`)
    .optional(),
});
export type FeedbackRequest = z.input<typeof FeedbackRequest>;
export const FeedbackResult = z.object({ message: z.string(), rating: z.enum(ANSWER_RATINGS) });

/** What the Quality Check would do at each threshold, replayed on the agent's latest test run and its rated answers. */
export const ThresholdEvidenceQuery = z.object({ trigger_point: z.string().max(100).default("") });
export const ThresholdPoint = z.object({
  threshold: z.number(),
  /** Questions whose chance of a right answer reaches the threshold: they would be answered … */
  answered: z.number(),
  /** … and those that would get the fallback. */
  fallback: z.number(),
  /** Questions whose expectation (a test question's, or a visitor's thumbs) would be met. */
  passed: z.number(),
});
export const ThresholdEvidence = z.object({
  /** The Minimum Retrieval Confidence in force today. */
  current: z.number(),
  /** The test results and rated answers replayed. */
  test_results: z.number(),
  rated_answers: z.number(),
  points: z.array(ThresholdPoint).length(EVIDENCE_THRESHOLDS.length),
});
export type ThresholdEvidence = z.infer<typeof ThresholdEvidence>;
