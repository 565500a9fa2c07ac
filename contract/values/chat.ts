/** The chat contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/chat.ts). */

/** The longest chat message a visitor may send, in characters (the widget's text box stops there too). */
export const CHAT_MESSAGE_MAX_CHARS = 2000;

/**
 * How an answer came about; the insights dashboard counts them. `small_talk` is the reply to a
 * message that asks nothing (a greeting, thanks, a goodbye, the visitor's name alone): no search ran.
 */
export const CHAT_OUTCOMES = ["answered", "fallback", "canned", "disclaimed", "small_talk"] as const;

/** Outcomes no quality-check threshold changes: retrieval did not decide them. */
export const UNGATED_OUTCOMES: readonly ChatOutcome[] = ["canned", "small_talk"];

export type ChatOutcome = (typeof CHAT_OUTCOMES)[number];

export interface ChatSource {
  title: string;
  url: string;
}

/**
 * The answer streams as newline-delimited JSON events: `start` (the conversation), `delta`s of
 * text, then `done` with the answer's message id (what a rating names), the outcome, sources and any disclaimer.
 */
export type ChatEvent =
  | { type: "start"; conversation_id: string }
  | { type: "delta"; text: string }
  | {
      type: "done";
      message_id: number;
      outcome: ChatOutcome;
      sources: ChatSource[];
      disclaimer: string | null;
      programs: { name: string; url: string }[];
    }
  | { type: "error"; message: string };
