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

/** The content words of a text, stemmed: what matching topics and picking sentences compare. */
export function contentWords(text: string) {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w)).map(stem);
}

/** Same word: equal stems, or the same first five letters (scholarship, scholarships; admitted, admission no). */
export const sameWord = (a: string, b: string) =>
  a === b || (a.length >= 6 && b.length >= 6 && a.slice(0, 6) === b.slice(0, 6));

/** A topic is raised when every content word of it appears in the message. */
export function mentions(message: string, topic: string) {
  const topicWords = contentWords(topic);
  if (!topicWords.length) return false;
  const words = contentWords(message);
  return topicWords.every((t) => words.some((w) => sameWord(w, t)));
}
