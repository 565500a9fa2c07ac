/** The testing contract's plain values: no zod, so browser code can import them (schemas: contract/testing.ts). */
import type { ChatOutcome } from "./chat";

export const TEST_ENVIRONMENTS = ["stage", "prod"] as const;
export const TEST_RUN_STATUSES = ["queued", "running", "done", "failed"] as const;
export const TEST_QUESTION_SORTS = ["question", "expect_outcome", "updated_at"] as const;
/** The longest test question: a visitor's message may be longer (CHAT_MESSAGE_MAX_CHARS). */
export const TEST_QUESTION_MAX_CHARS = 1000;
/** The most questions one import may add (a CSV of them, all added or none). */
export const TEST_QUESTIONS_IMPORT_MAX = 500;

/** How the Test Questions screen names each outcome a question may expect. */
export const OUTCOME_LABELS: Record<ChatOutcome, string> = {
  answered: "Answered",
  fallback: "Fallback",
  canned: "No-go canned response",
  disclaimed: "Sensitive-topic disclaimer",
  small_talk: "Small-talk reply",
};
