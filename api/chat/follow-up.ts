/**
 * Follow-up questions in a conversation: "What are its admission requirements?" after "Tell me
 * about the nursing program" is about the nursing program. A question that points back at
 * something said before (a pronoun or a demonstrative, "what about …") is searched and answered
 * with the visitor's previous question beside it: its words help find the passages, at half their
 * weight (retrieve's `context`), while the answering sentence is chosen by the question's own
 * words. Any other question stands on its own, so a visitor who changes the subject is not held to
 * the old one.
 */

/**
 * Words that point back at what was said before. "that" and "there" are left out: they mostly
 * join clauses ("the program that …") or open a question ("is there …"). A pronoun whose antecedent
 * is in the question itself ("When did Harvard change its name?") does little harm: the previous
 * question's words only help find passages, they do not choose the answering sentence.
 */
const POINTS_BACK = /\b(it|its|it's|they|them|their|theirs|he|him|his|she|her|hers|this|these|those)\b|^\s*(and|what about|how about)\b/i;

export const pointsBack = (question: string) => POINTS_BACK.test(question);

/**
 * What a question leans on: the visitor's previous question in the conversation when this one
 * points back at it, else nothing. The previous question is the one asked just before, as typed
 * (it was bounded and checked when it was asked).
 */
export function followUpContext(question: string, previousQuestion: string | null | undefined) {
  // A question with no key word of its own ("How much does it cost?") still gets the fallback: its
  // previous question says what it is about, but not what it asks (retrieve needs a word of its own).
  return previousQuestion && pointsBack(question) ? previousQuestion : undefined;
}
