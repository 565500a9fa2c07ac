/** The controls contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/controls.ts). */

/*
 * Controls and smart probing: the wire format of the spec's section 7 "Controls, probing,
 * prompts, finetuning", and the constants the screens share with the API (row counts, labels,
 * field definitions, defaults). Input prompts and AI finetuning: ./tuning.ts.
 */

// ── Trigger points ──────────────────────────────────────────────────────────────────────────

/** The client-wide trigger point ('Default' in the selector). Every agent inherits its settings. */
export const DEFAULT_TRIGGER_POINT = "";

export const DEFAULT_TRIGGER_POINT_LABEL = "Default";

// ── Controls: AI personality, sensitive topics, no-go topics, quality check ───────────────────

export const AI_PERSONALITY = "ai_personality_guidelines";

export const QUALITY_CHECK = "quality_check";

export const TOPIC_CONTROL_TYPES = ["sensitive_topics", "no_go_topics"] as const;

export type TopicControlType = (typeof TOPIC_CONTROL_TYPES)[number];

export const CONTROL_TYPES = [AI_PERSONALITY, ...TOPIC_CONTROL_TYPES, QUALITY_CHECK] as const;

/** Rows of the Sensitive Topics and No-Go Topics lists (each, per trigger point). */
export const TOPIC_ROWS = 8;

export const PERSONALITY_MAX_CHARS = 20_000;

export const TOPIC_MAX_CHARS = 300;

export const TOPIC_RESPONSE_MAX_CHARS = 2_000;

/**
 * The second column of each topic list. Both are stored in `metadata.disclaimer`: for a
 * sensitive topic it is shown with the answer, for a no-go topic it is said instead of one.
 */
export const TOPIC_RESPONSE_LABELS: Record<TopicControlType, string> = {
  sensitive_topics: "Disclaimer Text",
  no_go_topics: "Canned Response",
};

export const TOPIC_HELP_TEXTS: Record<TopicControlType, { topic: string; response: string }> = {
  sensitive_topics: {
    topic: 'A few words naming the topic, as people would ask about it (for example "scholarships").',
    response: "Shown with every answer about this topic.",
  },
  no_go_topics: {
    topic: "A few words naming the topic the assistant must not discuss.",
    response: "What the assistant says instead of answering.",
  },
};

export type QualityCheckField =
  | {
      name: "min_retrieval_confidence" | "max_sources";
      label: string;
      type: "number";
      min: number;
      max: number;
      step: number;
      help: string;
    }
  | { name: "require_source"; label: string; type: "boolean"; help: string }
  | { name: "fallback_message"; label: string; type: "text"; maxLength: number; help: string };

/** The Quality Check screen's fields, in order. */
export const QUALITY_CHECK_FIELDS: readonly QualityCheckField[] = [
  {
    name: "min_retrieval_confidence",
    label: "Minimum Retrieval Confidence",
    type: "number",
    min: 0,
    max: 1,
    step: 0.01,
    help: "0 to 1. The least chance that an answer is right, as the assistant estimates it from how much of the question the best passages, their page and the knowledge store hold (after finetuning penalties); below it the assistant gives the fallback message instead of guessing.",
  },
  {
    name: "require_source",
    label: "Require A Source For Every Answer",
    type: "boolean",
    help: "Every answer links the pages or files it comes from. When nothing in the knowledge store can be cited, the assistant gives the fallback message rather than answering from general knowledge. Turned off, an assistant that writes its answers with a language model answers such questions from general knowledge, citing nothing; one that quotes the store still gives the fallback message.",
  },
  {
    name: "max_sources",
    label: "Maximum Sources Per Answer",
    type: "number",
    min: 1,
    max: 10,
    step: 1,
    help: "How many passages an answer may draw on and cite. Fewer keeps answers focused.",
  },
  {
    name: "fallback_message",
    label: "Fallback Message",
    type: "text",
    maxLength: 1000,
    help: "What the assistant says when it cannot answer with enough confidence.",
  },
];

// ── Smart probing (User Probing Guidelines) ─────────────────────────────────────────────────

export const AI_PROBING_TYPES = ["topics", "topic_to_prob_mapping"] as const;

/** Height of each probing text area. */
export const PROBING_TEXT_ROWS = 10;

export const PROBING_MAX_CHARS = 20_000;

export const CONTROL_LABELS: Record<(typeof CONTROL_TYPES)[number], string> = {
  ai_personality_guidelines: "Chatbot Personality",
  sensitive_topics: "Sensitive Topics",
  no_go_topics: "No-Go Topics",
  quality_check: "Hallucination Accuracy & Quality Check",
};

export const CONTROL_HELP_TEXTS: Record<(typeof CONTROL_TYPES)[number], string> = {
  ai_personality_guidelines:
    "How the assistant speaks and behaves: tone, manner, accuracy rules and boundaries. It applies to every answer.",
  sensitive_topics:
    "Topics the assistant may answer, but always with the disclaimer text next to the answer (for example financial aid or visas).",
  no_go_topics:
    "Topics the assistant never answers: it replies with the canned response instead (for example legal advice or competitors).",
  quality_check:
    "When the assistant may answer at all: how well the knowledge store must match the question, and what it says otherwise.",
};

export const AI_PROBING_LABELS: Record<(typeof AI_PROBING_TYPES)[number], string> = {
  topics: "Topics For Probing",
  topic_to_prob_mapping: "Topics to Prob Mapping",
};
