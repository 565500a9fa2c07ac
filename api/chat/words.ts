import { lexemesOf, wordsOf } from "../knowledge/words/lexemes";

/** Words that say nothing about what a question is about. */
const STOP = new Set([
  "the",
  "and",
  "for",
  "are",
  "was",
  "were",
  "with",
  "that",
  "this",
  "what",
  "which",
  "when",
  "where",
  "who",
  "whom",
  "how",
  "why",
  "can",
  "could",
  "would",
  "should",
  "will",
  "does",
  "did",
  "have",
  "has",
  "had",
  "you",
  "your",
  "our",
  "their",
  "there",
  "about",
  "from",
  "into",
  "any",
  "some",
  "tell",
  "please",
  "want",
  "know",
  "need",
  "like",
  "get",
  "give",
  "much",
  "many",
  "also",
  "just",
]);

const stem = (word: string) => word.replace(/(ies|es|s|ing|ed)$/, "");

/** The content words of a text, stemmed: what picking sentences and programs compare. */
export function contentWords(text: string) {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w)).map(stem);
}

/** Same word: equal stems, or the same first five letters (scholarship, scholarships; admitted, admission no). */
export const sameWord = (a: string, b: string) =>
  a === b || (a.length >= 6 && b.length >= 6 && a.slice(0, 6) === b.slice(0, 6));

/** A text's lexemes as the knowledge index reads words (stemmed, no accents, each script cut its own way). */
const lexemesOfText = (text: string) => lexemesOf(wordsOf(text.normalize("NFKC")));

/** The message's lexemes: every topic of a list is checked against the same message, which is read once. */
function messageLexemes(text: string) {
  if (lastRead?.text !== text) lastRead = { text, lexemes: new Set(lexemesOfText(text)) };
  return lastRead.lexemes;
}
let lastRead: { text: string; lexemes: Set<string> } | null = null;

/**
 * A Sensitive or No-Go topic is raised when every word of it appears in the message, in any of its
 * forms: words are compared as the knowledge index compares them ("fees" is "fee", "policies"
 * "policy", "Résumé" "resume", "визы" "виза", and a Chinese or Thai topic is found within the
 * unspaced text around it). Only the same word counts: "internships" is not raised by
 * "international", nor "contraception" by "contract". A topic of stop words alone raises nothing.
 */
export function mentions(message: string, topic: string) {
  const topicWords = lexemesOfText(topic);
  if (!topicWords.length) return false;
  const words = messageLexemes(message);
  return topicWords.every((word) => words.has(word));
}

/** Whether a topic holds a word a message can raise it by: one of stop words alone ("US", "what is it") never fires. */
export const isRecognisableTopic = (topic: string) => lexemesOfText(topic).length > 0;
