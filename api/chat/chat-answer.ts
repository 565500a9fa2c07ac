import type { AnswerTrace, ChatOutcome, ChatSource } from "@contract";
import type { SearchHit } from "../knowledge/index/search";

/** What the responder answers a visitor's message with (api/chat/responder.ts). */
export interface ChatAnswer {
  text: string;
  outcome: ChatOutcome;
  sources: StoredSource[];
  disclaimer: string | null;
  programs: { name: string; url: string }[];
  /** The web pages among the sources (stable addresses, unlike a file's signed link): what insights count as cited. */
  citedPages: ChatSource[];
  /**
   * For a fallback: the passages retrieval found closest, for the dashboard's unanswered questions.
   * For several questions (`trace.parts`), those of each question nothing answered, marked with it.
   */
  closest: ClosestPassage[];
  /** The passages the answer cites, the quoted one (or the model's first citation) first. */
  passages: SearchHit[];
  /** What a model reads (or would read, without one): the quoted passage, then retrieval's passages in order, within a budget (modelContext). */
  context: SearchHit[];
  /** Why it came out so, as the Conversations screen shows it: stored with the answer, never recomputed. */
  trace: AnswerTrace;
}

/**
 * A source as the answer's message keeps it: what the visitor was shown and, for an uploaded file,
 * the file's id (its link expires; the transcript and a test run's results sign a new one from the
 * id, api/files/file-links.ts).
 */
export interface StoredSource extends ChatSource {
  file_id?: number;
}

export interface ClosestPassage {
  title: string;
  url: string;
  score: number;
  text: string;
  /** For a message of several questions: the question (1, 2, …) it was found for. */
  part?: number;
}
