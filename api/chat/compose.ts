// A text's lower-case words and each one's lexeme, by the code that made the index's: the two agree.
import { lexemeOf, wordCountOf, wordsOf as tokensOf } from "../knowledge/words/lexemes";
import type { QuestionTerm, SearchHit } from "../knowledge/index/search";
import {
  answerKindOf,
  attributesAskedBy,
  definedSubjectOf,
  holdsAnswerOfKind,
  isAnswerWord,
  wantsSeveralSentences,
  wordsAsWritten,
} from "./answer-kind";
import {
  CLOSENESS_FLOOR,
  COVERAGE_BY_WEIGHT,
  INFORMATIVE_BASE,
  INFORMATIVE_PER_WORD,
  LIST_SENTENCES,
  LIST_WORDS,
  MAX_QUOTE_WORDS,
  NAMES_THE_HEADING,
  PAIR_WEIGHT,
  RANK_STEP,
  RELATED_FORM_LETTERS,
  RELATED_FORM_WEIGHT,
  RELEVANCE_FLOOR,
  SECTION_WORDS,
  SHORT_SENTENCES,
  SHORT_WORDS,
} from "./answer-constants";
import { factLabelOf, quoteOf, passageSentencesOf, type Sentence } from "./sentences";

/** Chinese and Japanese set no space after a sentence's 。！？ (or the closing bracket after it). */
const ENDS_WITHOUT_SPACE = /[。！？」』）]$/u;
const joinedSentences = (parts: string[]) =>
  parts.reduce(
    (text, part) => (!text ? part : ENDS_WITHOUT_SPACE.test(text) ? `${text}${part}` : `${text} ${part}`),
    "",
  );

/** The heading a PDF's every page is filed under ("Page 3"): its passages are a PDF's. */
const isPdfPage = (heading: string) => /^Page \d+$/.test(heading);

export interface ComposedAnswer {
  text: string;
  /** The passages, the one the answer leads with first: the order their sources are cited in. */
  passages: SearchHit[];
}

interface Candidate {
  passage: number;
  index: number;
  sentence: Sentence;
  /** The sentence after it, when the two are weighed together. */
  next?: Sentence;
  score: number;
}

/** Key words found in a text: each one's word positions, and those found only in a related form. */
interface FoundKeyWords {
  positions: Map<string, number[]>;
  relatedOnly: Set<string>;
}

/**
 * The key word a lexeme is another form of, when one of the two begins the other and the shorter
 * has a few letters at least: "brazil" for "brazilian", "coloni" for "colonis". Stemming leaves
 * such derived forms apart, and crowd-written questions often ask in the other one.
 */
function relatedKeyWord(lexeme: string, weightOf: Map<string, number>) {
  if (lexeme.length < RELATED_FORM_LETTERS || /\d/.test(lexeme)) return null;
  for (const key of weightOf.keys()) {
    const [shorter, longer] = key.length < lexeme.length ? [key, lexeme] : [lexeme, key];
    if (shorter.length >= RELATED_FORM_LETTERS && longer.startsWith(shorter) && !/\d/.test(key)) return key;
  }
  return null;
}

/** Where each key word stands in a text: what coverage and closeness are measured on. */
function keyWordPositions(text: string, weightOf: Map<string, number>): FoundKeyWords {
  const positions = new Map<string, number[]>();
  const exact = new Set<string>();
  tokensOf(text).forEach((token, position) => {
    const lexeme = lexemeOf(token);
    const key = weightOf.has(lexeme) ? lexeme : relatedKeyWord(lexeme, weightOf);
    if (!key) return;
    if (key === lexeme) exact.add(key);
    positions.set(key, [...(positions.get(key) ?? []), position]);
  });
  return { positions, relatedOnly: new Set([...positions.keys()].filter((key) => !exact.has(key))) };
}

/** A found key word's weight: the question's for the word itself, less for a related form of it. */
const weightFound = (found: FoundKeyWords, key: string, weightOf: Map<string, number>) =>
  weightOf.get(key)! * (found.relatedOnly.has(key) ? RELATED_FORM_WEIGHT : 1);

/**
 * How close together the key words found are: 1 when side by side, towards 0 when scattered (a
 * sentence's score is scaled by it from CLOSENESS_FLOOR to 1).
 */
function closeness(positions: Map<string, number[]>) {
  if (positions.size < 2) return 1;
  const events = [...positions]
    .flatMap(([stem, at]) => at.map((position) => ({ stem, position })))
    .sort((a, b) => a.position - b.position);
  // The shortest run of words holding every key word found (a sliding window over the positions).
  const inWindow = new Map<string, number>();
  let shortest = Infinity;
  let left = 0;
  for (const event of events) {
    inWindow.set(event.stem, (inWindow.get(event.stem) ?? 0) + 1);
    while (inWindow.size === positions.size) {
      shortest = Math.min(shortest, event.position - events[left].position + 1);
      const leaving = events[left++];
      const count = inWindow.get(leaving.stem)! - 1;
      if (count) inWindow.set(leaving.stem, count);
      else inWindow.delete(leaving.stem);
    }
  }
  return positions.size / shortest;
}

/** Whether each of two texts (their key words found) holds a key word the other does not. */
function eachAddsKeyWords(first: FoundKeyWords, second: FoundKeyWords) {
  const [a, b] = [first.positions, second.positions];
  return [...a.keys()].some((stem) => !b.has(stem)) && [...b.keys()].some((stem) => !a.has(stem));
}

/** Whether a label ("Length" of "Length: 4 years") holds a key word: its line says what the question asks about. */
const namesKeyWord = (label: string | null, weightOf: Map<string, number>) =>
  !!label && tokensOf(label).some((token) => weightOf.has(lexemeOf(token)));

/**
 * How much a sentence says beyond the question's own words: a sentence made of little else
 * ("Learn more about Network Monitor") answers nothing. 1 from four other meaningful words on, and
 * 1 when it says what is asked (`saysWhatIsAsked`): the kind of answer asked for, or a fact's line
 * whose label names it ("Credits: 120", a price under a product's name), in a word or two.
 */
function informative(text: string, weightOf: Map<string, number>, saysWhatIsAsked: boolean) {
  if (saysWhatIsAsked) return 1;
  const other = new Set(
    tokensOf(text)
      .map(lexemeOf)
      .filter((stem) => stem && !weightOf.has(stem)),
  );
  return Math.min(1, INFORMATIVE_BASE + INFORMATIVE_PER_WORD * other.size);
}

/**
 * The extractive answer: the sentence of the kept passages that answers the question, quoted
 * first, and one more sentence only when it helps (a short lead gets its next sentence) or a
 * question asks for several (a how-to, a list). A sentence is chosen by
 * - the share of the question's key-word weight it holds, rare words counting above common ones
 *   (retrieval's BM25 weights), another form of a key word ("Brazil" for "Brazilian") most of it,
 *   words of its section heading or page title counting half (fully when the question is, nearly,
 *   that title or heading);
 * - whether it holds the kind of answer asked for (who: a name, when: a date, how many: a number,
 *   where: a place) that the question does not already hold;
 * - how close together its key words stand, and how much it says besides them;
 * - whether such an answer stands within a few words of a key word;
 * - the passage's relevance to the whole question (its BM25 against the best passage's), and its rank, slightly.
 * A long sentence (PDF text often has no full stops) is quoted around its telling words; every cut
 * is marked with "…", and a word is never cut. `searchedFor` is what retrieval was asked (for a
 * follow-up, the previous question too); the kind of answer wanted comes from the question itself.
 * With `kindOnly`, the terms are the previous question's (a follow-up with no key word of its own,
 * "How much does it cost?"): only a sentence holding the kind of answer asked for may answer.
 */
export function composeAnswer(
  question: string,
  terms: QuestionTerm[],
  passages: SearchHit[],
  searchedFor = question,
  kindOnly = false,
): ComposedAnswer {
  const split = passages.map((passage) => passageSentencesOf(passage.text, passage.headingPath.some(isPdfPage)));
  const headings = passages.map((passage) => [passage.title, ...passage.headingPath].join(" "));

  const weightOf = new Map(terms.map((term) => [term.lexeme, term.idf]));
  const totalWeight = terms.reduce((sum, term) => sum + term.idf, 0) || 1;
  const kind = answerKindOf(question);
  const attributesAsked = new Set(attributesAskedBy(question).map(lexemeOf));
  // Words the visitor already said (a follow-up's previous question too) are not an answer.
  const questionWords = new Set(tokensOf(searchedFor));
  const subject = definedSubjectOf(question);
  const holdsAnswer = (text: string) => holdsAnswerOfKind(text, kind, questionWords, subject);
  const topRelevance = Math.max(...passages.map((p) => p.relevance || 0)) || 1;
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  split.forEach((sentences, passage) => {
    const inHeading = keyWordPositions(headings[passage], weightOf);
    // A question that is (nearly) the passage's title or heading asks about what stands under it:
    // the heading's words then count fully for each of its sentences, not half.
    let headingWeight = 0;
    for (const stem of inHeading.positions.keys()) headingWeight += weightFound(inHeading, stem, weightOf);
    const headingShare = headingWeight / totalWeight >= NAMES_THE_HEADING ? 1 : 0.5;
    // A sentence, or two side by side: each is looked at on its own for the answer it holds, so that
    // the capital opening the second ("… in many countries. Motorists faced …") is not taken for a
    // name, nor the last word of one and the first of the next for a name of two words.
    const scoreOf = (texts: string[], found = keyWordPositions(texts.join(" "), weightOf)) => {
      const text = texts.join(" ");
      let weight = 0;
      for (const stem of found.positions.keys()) weight += weightFound(found, stem, weightOf);
      // A fact's line never names its subject ("Length: 4 years" under "Nursing (BSN)"): the
      // headings above it do, in full.
      const textLabel = factLabelOf(text);
      const label = texts.length === 1 ? textLabel : null;
      const share = label !== null ? 1 : headingShare;
      for (const stem of inHeading.positions.keys())
        if (!found.positions.has(stem)) weight += weightFound(inHeading, stem, weightOf) * share;
      // Its label may name what the question's frame asks for ("Length" for "How long …?"): that
      // counts as a key word of average weight.
      const labelsAsked = label !== null && tokensOf(label).some((token) => attributesAsked.has(lexemeOf(token)));
      if (labelsAsked) weight += totalWeight / (weightOf.size || 1);
      // Rare words weigh most, but a sentence holding every key word (the question's verb too, however
      // common) is likelier the answer than one holding the rare ones alone (COVERAGE_BY_WEIGHT). A
      // fact's line holds its headings' words and the attribute its label names as its own.
      let held = found.positions.size;
      if (label !== null)
        held +=
          [...inHeading.positions.keys()].filter((stem) => !found.positions.has(stem)).length + (labelsAsked ? 1 : 0);
      const coverage =
        COVERAGE_BY_WEIGHT * (weight / totalWeight) +
        (1 - COVERAGE_BY_WEIGHT) * Math.min(1, held / (weightOf.size || 1));
      const answers = kind !== "any" && texts.some(holdsAnswer);
      if (kindOnly && !answers) return 0;
      return (
        coverage *
        (CLOSENESS_FLOOR + (1 - CLOSENESS_FLOOR) * closeness(found.positions)) *
        informative(text, weightOf, answers || labelsAsked || namesKeyWord(textLabel, weightOf)) *
        // A later passage of retrieval's order weighs a little less (RANK_STEP).
        (1 - RANK_STEP * passage) *
        (RELEVANCE_FLOOR + (1 - RELEVANCE_FLOOR) * Math.min(1, (passages[passage].relevance || 0) / topRelevance))
      );
    };
    const keyWordsIn = sentences.map((sentence) => keyWordPositions(sentence.text, weightOf));
    sentences.forEach((sentence, index) => {
      // Passages overlap a little: a sentence repeated in the next passage is weighed once.
      const key = sentence.text.toLowerCase();
      if (seen.has(key)) return;
      seen.add(key);
      candidates.push({ passage, index, sentence, score: scoreOf([sentence.text], keyWordsIn[index]) });
      // Two sentences side by side that say together what the question asks, each holding key
      // words the other lacks ("… known as the Wars of Religion." "The wars finally ended with …"):
      // weighed as one text, a little below a single sentence that says it all.
      const next = sentences[index + 1];
      if (next && !wantsSeveralSentences(question) && eachAddsKeyWords(keyWordsIn[index], keyWordsIn[index + 1])) {
        candidates.push({ passage, index, sentence, next, score: PAIR_WEIGHT * scoreOf([sentence.text, next.text]) });
      }
    });
  });
  const lead = candidates.reduce<Candidate | null>((best, c) => (!best || c.score > best.score ? c : best), null);
  if (!lead || lead.score <= 0) return { text: "", passages };

  // What a word adds to a quoted window: its key-word weight, and the answer it may be.
  const stemWeight = (word: string) =>
    tokensOf(word).reduce((sum, token) => sum + (weightOf.get(lexemeOf(token)) ?? 0), 0) +
    (wordsAsWritten(word).some((w) => isAnswerWord(w, kind, questionWords)) ? 1 : 0);
  // A table's row of two cells is quoted as its label and value: "Tuition: $9,800 per semester".
  const quote = (sentence: Sentence) => {
    const quoted = quoteOf(sentence, MAX_QUOTE_WORDS, stemWeight);
    return factLabelOf(quoted) !== null && quoted.split(" | ").length === 2 ? quoted.replace(" | ", ": ") : quoted;
  };
  const sentences = split[lead.passage];
  const before = sentences[lead.index - 1];
  const after = sentences[lead.index + 1];
  const parts = [quote(lead.sentence)];
  if (lead.next) {
    parts.push(quote(lead.next));
  } else if (wantsSeveralSentences(question)) {
    let words = wordCountOf(parts[0]);
    for (const next of sentences.slice(lead.index + 1, lead.index + LIST_SENTENCES)) {
      const text = quote(next);
      if (words + wordCountOf(text) > LIST_WORDS) break;
      parts.push(text);
      words += wordCountOf(text);
    }
  } else if (kind !== "any" && !holdsAnswer(lead.sentence.text)) {
    // The sentence that asks's neighbour often holds the answer: "… a Catholic priest. The priest, Fidelis Mukonori, …",
    // or the one after it ("Contact us: Office of Admissions, … Open Monday to Friday … Phone: (555) 010-1891."),
    // quoted after a "…" that marks the sentence left out.
    const twoOn = sentences[lead.index + 2];
    if (after && holdsAnswer(after.text)) parts.push(quote(after));
    else if (before && holdsAnswer(before.text)) parts.unshift(quote(before));
    else if (twoOn && holdsAnswer(twoOn.text)) parts.push(`… ${quote(twoOn)}`);
  } else if (factLabelOf(lead.sentence.text) === null) {
    // Short next sentences usually complete the lead ("… 8:30 am to 5 pm. Phone: (555) 010-1891."):
    // they follow it while the answer stays short. A fact's line is complete: the next line is another fact.
    let words = wordCountOf(parts[0]);
    for (const next of sentences.slice(lead.index + 1, lead.index + SHORT_SENTENCES)) {
      if (words + wordCountOf(next.text) > SHORT_WORDS) break;
      parts.push(quote(next));
      words += wordCountOf(next.text);
    }
  }
  // The section a sentence sits in often names what it is about ("WebIDE", "Nursing (BSN)"). A
  // section's first passage opens with its heading's line, which reads on into the first sentence
  // ("Library Opening hours are …"): the heading is set apart from it as a label.
  const section = passages[lead.passage].headingPath.at(-1) ?? "";
  if (lead.index === 0 && section && !isPdfPage(section)) {
    if (parts[0].startsWith(`${section} `) && !/[\p{P}]$/u.test(section)) {
      parts[0] = `${section}: ${parts[0].slice(section.length + 1)}`;
    } else if (
      wordCountOf(section) <= SECTION_WORDS &&
      !tokensOf(section).some((token) => tokensOf(lead.sentence.text).includes(token))
    ) {
      parts[0] = `${section}: ${parts[0]}`;
    }
  }
  const leadPassage = passages[lead.passage];
  return { text: joinedSentences(parts), passages: [leadPassage, ...passages.filter((p) => p !== leadPassage)] };
}
