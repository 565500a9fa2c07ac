/**
 * The constants an extractive answer is chosen and cut by (compose.ts), each with the figure that
 * chose it. Retrieval's own constants are in api/knowledge/index/ranking-constants.ts, and the
 * quality check's (the share a passage must hold to be quoted, the confidence model) in
 * answer-confidence.ts. The SQuAD figures are `bench/answers-cv.ts`'s, judged across articles
 * (decision 036), unless said.
 */

/**
 * Words a quoted sentence keeps at most; a longer one is quoted around its telling words, marked
 * "…". 45 rather than 40 keeps the answer in a few more long sentences (decision 018).
 */
export const MAX_QUOTE_WORDS = 45;
/** An answer that lists (a how-to, "what are the …") quotes this many sentences and words at most. */
export const LIST_SENTENCES = 4;
export const LIST_WORDS = 80;
/**
 * Sentences after the lead follow it while the answer stays within this many words and sentences.
 * 45 words made each article's median answer two to five words longer and changed contains by a
 * question or two on three articles alone (decision 036).
 */
export const SHORT_WORDS = 35;
export const SHORT_SENTENCES = 2;
/**
 * A word of another form than the question's key word ("Brazil" for "Brazilian") counts at this
 * share of its weight, when the shorter of the two lexemes, with this many letters at least, begins
 * the other. Chosen on half A of the SQuAD development set (decision 018). Judged across articles
 * (decision 036): without it five articles' contains falls (Huguenot −3.7, Yuan dynasty −2.2
 * points) and one's rises by one question; all questions 81.3 → 80.5 %.
 */
export const RELATED_FORM_WEIGHT = 0.8;
export const RELATED_FORM_LETTERS = 4;
/** The share of the question's key-word weight a passage's title and headings hold for the question to name them. */
export const NAMES_THE_HEADING = 0.8;
/** A section heading this short is named before a sentence that opens its section. */
export const SECTION_WORDS = 6;
/**
 * Two neighbouring sentences weighed as one count this much of their joint score. Without such
 * pairs every article's contains falls (decision 036: median article 85.25 → 84.00 %, Harvard −4.5,
 * Packet switching −3.8 points).
 */
export const PAIR_WEIGHT = 0.85;
/**
 * A sentence's score is scaled by its passage's retrieval relevance against the best passage's,
 * from this floor (a passage that barely ranks) to 1 (the best): a sentence of an off-topic
 * passage that happens to hold the question's rarest word ("Words need defenders.") loses to one
 * in the passage about the question's subject. Without it (a floor of 1), the median article's
 * contains falls 85.25 → 84.20 % and its first source 98.05 → 97.60 % (decision 036).
 */
export const RELEVANCE_FLOOR = 0.5;
/**
 * A sentence's score is scaled by how close together its key words stand, from this floor
 * (scattered) to 1 (side by side). Without it the median article's contains falls 85.25 → 84.50 %
 * and answers grow longer (decision 036).
 */
export const CLOSENESS_FLOOR = 0.75;
/**
 * A sentence's coverage of the question: this much the share of the key words' weight it holds,
 * the rest the share of the key words it holds, however common (the question's verb too). With the
 * weight's share alone, the median article's contains fell 85.50 → 84.85 % (Huguenot −1.8, Packet
 * switching −1.9 points, decision 036).
 */
export const COVERAGE_BY_WEIGHT = 0.8;
/**
 * Each later passage of retrieval's order weighs this much less (the second × 0.97, the third ×
 * 0.94, …). Without it the median article's first source fell 98.05 → 97.60 % (Harvard and 1973
 * oil crisis −0.9 points each, decision 036).
 */
export const RANK_STEP = 0.03;
/**
 * How much a sentence says beyond the question's own words: this much with none, and this much
 * more for each other meaningful word, up to 1 (from four such words on). Chosen with the product
 * pages' answers (decision 018): a sentence made of the question's words ("Learn more about Network
 * Monitor") answers nothing.
 */
export const INFORMATIVE_BASE = 0.4;
export const INFORMATIVE_PER_WORD = 0.15;
