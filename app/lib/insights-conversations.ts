import { CONVERSATION_SEARCH_CHARS } from "@contract/values/conversations";
import type { INSIGHT_ENVIRONMENTS } from "@contract/values/insights";

/**
 * Business Insights counts questions; Conversations shows what was answered to them and why ("Why
 * this answer"). A question listed on the dashboard links to the conversations that asked it: the
 * list searched for its words, over the dashboard's days and environment, in the agent's own list
 * when the dashboard shows one agent, and only those given the fallback for an unanswered question.
 */
export interface AskedInScope {
  urlCode: string;
  /** The path of the agent's screens when the dashboard shows one agent; null for the whole client. */
  agentPath: string | null;
  /** The dashboard's days (UTC), as the API answered them. */
  range: { from: string; to: string };
  environment: (typeof INSIGHT_ENVIRONMENTS)[number];
}

/**
 * A question as the list's search: its words, at most as many characters as a search may hold. A
 * longer question is cut between words, so every word searched for is whole; fewer words find the
 * same conversations and perhaps a few more.
 */
export function searchOfQuestion(question: string) {
  const words = question.replace(/\s+/g, " ").trim();
  if (words.length <= CONVERSATION_SEARCH_CHARS) return words;
  const cut = words.slice(0, CONVERSATION_SEARCH_CHARS + 1);
  const lastSpace = cut.lastIndexOf(" ");
  // A script written without spaces has no word to end on: its text is searched for anywhere.
  return lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, CONVERSATION_SEARCH_CHARS);
}

/** Where the conversations that asked `question` are listed (the latest first). */
export function conversationsAskingPath(scope: AskedInScope, question: string, unansweredOnly = false) {
  const list = scope.agentPath ? `${scope.agentPath}/conversations` : `/${scope.urlCode}/conversations`;
  const params = new URLSearchParams({
    search: searchOfQuestion(question),
    from: scope.range.from,
    to: scope.range.to,
  });
  if (scope.environment !== "all") params.set("environment", scope.environment);
  if (unansweredOnly) params.set("outcome", "fallback");
  return `${list}?${params}`;
}
