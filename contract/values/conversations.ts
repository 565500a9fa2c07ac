/** The conversations contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/conversations.ts). */

/** A visitor's verdict on one answer, from the widget's thumbs. */
export const ANSWER_RATINGS = ["up", "down"] as const;
export type AnswerRating = (typeof ANSWER_RATINGS)[number];

/** The longest comment a visitor may leave with a thumbs down, in characters (the widget stops there too). */
export const FEEDBACK_COMMENT_MAX_CHARS = 500;

/** The list's rating filter: conversations with an answer rated up, one rated down, or none rated. */
export const CONVERSATION_RATING_FILTERS = ["up", "down", "unrated"] as const;

/** A conversation's ratings in one word: null when no answer was rated. */
export const CONVERSATION_RATINGS = ["up", "down", "mixed"] as const;

/** The longest search of the Conversations list, in characters. */
export const CONVERSATION_SEARCH_CHARS = 200;

export const CONVERSATION_SORTS = ["latest", "oldest", "most_questions"] as const;
export const CONVERSATION_SORT_LABELS: Record<(typeof CONVERSATION_SORTS)[number], string> = {
  latest: "Latest first",
  oldest: "Oldest first",
  most_questions: "Most questions first",
};

/** What a trace records of the controls that shaped an answer. */
export const TRACE_CONTROL_TYPES = ["no_go_topic", "sensitive_topic", "probing_question", "input_prompt"] as const;
export const TRACE_CONTROL_LABELS: Record<(typeof TRACE_CONTROL_TYPES)[number], string> = {
  no_go_topic: "No-Go topic matched",
  sensitive_topic: "Sensitive topic matched",
  probing_question: "Probing question asked",
  input_prompt: "Input prompt",
};

/**
 * Why an answer was the fallback message, as its trace records it: retrieval found no passage; no
 * passage held enough of the question to quote; the chance that an answer is right was below the
 * Minimum Retrieval Confidence; no sentence of the quotable passages answered; the language model
 * found no answer in the passages it was given; the passages that would have passed the quality
 * check are in uploaded files not tagged for the environment it was asked in (`files_not_tagged`).
 */
export const FALLBACK_REASONS = [
  "no_passage",
  "none_quotable",
  "below_threshold",
  "no_sentence",
  "model_declined",
  "file_not_tagged",
] as const;
export type FallbackReason = (typeof FALLBACK_REASONS)[number];

/**
 * What a small-talk message was read as (the answer's outcome is then `small_talk`): a greeting,
 * thanks, a goodbye, an acknowledgement ("ok"), or the visitor's name or contact details alone.
 */
export const SMALL_TALK_KINDS = ["greeting", "thanks", "farewell", "acknowledgement", "introduction"] as const;
export type SmallTalkKind = (typeof SMALL_TALK_KINDS)[number];

/** A trace keeps at most this many passages, each cut to TRACE_PASSAGE_CHARS: bounded whatever retrieval found. */
export const TRACE_MAX_PASSAGES = 10;
export const TRACE_PASSAGE_CHARS = 300;

/**
 * A trace keeps at most this many of the question's key words (the weightiest), each cut to
 * TRACE_KEY_WORD_CHARS: a question is searched by 64 words at most, and a visitor's word can be long.
 */
export const TRACE_MAX_KEY_WORDS = 24;
export const TRACE_KEY_WORD_CHARS = 60;

/**
 * A trace names at most this many AI Finetuning rules that left pages out of an answer's
 * candidates, each with at most TRACE_LEFT_OUT_PAGES of the pages it left out, rules and pages cut
 * to TRACE_LEFT_OUT_CHARS: bounded however many pages a rule removes.
 */
export const TRACE_MAX_LEFT_OUT_RULES = 5;
export const TRACE_LEFT_OUT_PAGES = 3;
export const TRACE_LEFT_OUT_CHARS = 200;

/**
 * A trace names at most this many uploaded files whose passages were left out of an answer for not
 * being tagged for its environment, each name cut to TRACE_FILE_NAME_CHARS.
 */
export const TRACE_MAX_FILES_NOT_TAGGED = 5;
export const TRACE_FILE_NAME_CHARS = 200;

/**
 * The Minimum Retrieval Confidence values the Quality Check's evidence is tallied at. The value is
 * a chance that the answer is right (docs/decisions/040), and what matters lies low: the default
 * 0.04 and the 0.07 where 2 % of answerable held-out questions got the fallback sit below 0.1, so
 * the rows are closer there than above it.
 */
export const EVIDENCE_THRESHOLDS = [0.02, 0.04, 0.07, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;
