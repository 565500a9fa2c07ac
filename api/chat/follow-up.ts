import { hasKeyWords } from "../knowledge/index/search";
import { answerKindOf } from "./answer-kind";

/**
 * Follow-up questions in a conversation: "What are its admission requirements?" after "Tell me
 * about the nursing program" is about the nursing program. A question that points back at
 * something said before (a pronoun or a demonstrative, "what about …") is searched and answered
 * with the visitor's previous question beside it: its words help find the passages, at half their
 * weight (retrieve's `context`), while the answering sentence is chosen by the question's own
 * words. A follow-up with no key word of its own that says what kind of answer it wants ("How much
 * does it cost?": an amount) is searched by its previous question's words, and the kind chooses
 * the sentence. Any other question stands on its own, so a visitor who changes the subject is not
 * held to the old one.
 */

/**
 * Words that point back at what was said before. "that" and "there" are left out: they mostly
 * join clauses ("the program that …") or open a question ("is there …"). A pronoun whose antecedent
 * is in the question itself ("When did Harvard change its name?") does little harm: the previous
 * question's words only help find passages, they do not choose the answering sentence.
 */
const POINTS_BACK =
  /\b(it|its|it's|they|them|their|theirs|he|him|his|she|her|hers|this|these|those)\b|^\s*(and|what about|how about)\b/i;

export const pointsBack = (question: string) => POINTS_BACK.test(question);

/**
 * What a question leans on: the visitor's previous question in the conversation when this one
 * points back at it, else nothing. The previous question is the one asked just before, as typed
 * (it was bounded and checked when it was asked).
 */
export function followUpContext(question: string, previousQuestion: string | null | undefined) {
  return previousQuestion && pointsBack(question) ? previousQuestion : undefined;
}

/**
 * How a question is searched in its conversation. `query` finds and weighs the passages, `context`
 * (at half weight) helps find them, and `ownWords` says whether only the query's words choose the
 * answering sentence. A follow-up that asks for a kind of answer with no key word of its own ("How
 * much does it cost?", "Where is it?") is searched by its previous question, whose words
 * then choose the sentence with the kind. One that says neither ("Why?", "Tell me more about it")
 * finds nothing, and gets the fallback rather than the previous answer again.
 */
export function followUpSearch(
  question: string,
  previousQuestion: string | null | undefined,
): { query: string; context?: string; ownWords: boolean } {
  const earlier = followUpContext(question, previousQuestion);
  if (earlier && !hasKeyWords(question) && answerKindOf(question) !== "any") return { query: earlier, ownWords: false };
  return { query: question, context: earlier, ownWords: true };
}
