/**
 * The kind of answer a question asks for, and whether a sentence holds one: a sentence that names a
 * person answers "who", a date "when", a number "how many", a number one can dial "what is the
 * phone number", a place "where". The rules are plain
 * English question words and shapes of names, dates and numbers; they only tip the choice between
 * sentences that already share the question's words.
 */
export type AnswerKind = "person" | "date" | "number" | "amount" | "phone" | "place" | "definition" | "any";

const NUMBER_QUESTION =
  /\bhow (many|much|old|big|large|small|long|far|often|fast|tall|high|heavy|soon)\b|\bwhat(?:'s| is| are| was| were)? (?:the )?(percentage|percent|share|proportion|fraction|number|amount|size|score|rate|price|fee|cost)\b|\bnumber of\b|\bdoes (it|\w+) cost\b/;
/** A "how much" question about money ("How much does it cost?", "How much is the application fee?") asks for an amount of it. */
const MONEY_WORDS =
  /\b(cost|costs|price|prices|priced|fee|fees|charge|charges|charged|pay|paid|spend|spent|tuition|worth)\b/;
/** "What is the phone number …?", "Which number do I call …?": a number one can dial. */
const PHONE_QUESTION =
  /\b(phone|telephone|fax|contact) number\b|\bnumber (do|should|can) (i|we|you) (call|dial|ring)\b/;
/** Seven or more digits with the usual separators: "(555) 010-1891", "+44 20 7946 0958". */
const PHONE_NUMBER = /\+?\(?\d[\d ().-]{5,}\d/g;
const PERSON_QUESTION =
  /\b(who|whom|whose)\b|\bwhich (person|people|writer|author|editor|analyst|founder|company|organi[sz]ation|team|group|body)\b/;
const DATE_QUESTION = /\bwhen\b|\b(what|which) (year|date|day|month|time|hours|season|week)\b|\bby what date\b/;
const PLACE_QUESTION =
  /\bwhere\b|\b(what|which|in which) (city|country|state|place|town|county|region|building|campus|hospital|street|venue|location)\b/;
/**
 * The attribute a question's frame asks for, as the nouns a page labels it with: "How long is the
 * program?" asks for its length ("Length: 4 years"), "How heavy is it?" for its weight. The
 * adjectives are those of "how …" questions above, each with its attribute in WordNet's sense
 * (long: length, heavy: weight, old: age); "where" asks for a location (a campus, a building,
 * a room), "when" for a date.
 */
const ATTRIBUTES_ASKED: [frame: RegExp, nouns: string[]][] = [
  [/\bhow long\b/, ["length", "duration"]],
  [/\bhow old\b/, ["age"]],
  [/\bhow (big|large|small)\b/, ["size"]],
  [/\bhow far\b/, ["distance"]],
  [/\bhow often\b/, ["frequency"]],
  [/\bhow fast\b/, ["speed"]],
  [/\bhow (tall|high)\b/, ["height"]],
  [/\bhow heavy\b/, ["weight"]],
  [/\bhow much\b/, ["price", "cost", "fee", "amount"]],
  // The places PLACE_QUESTION names as "which …" questions, as a page labels where a thing is.
  [/\bwhere\b/, ["location", "address", "place", "venue", "campus", "building", "room", "site"]],
  [/\bwhen\b/, ["date", "deadline", "time", "hours"]],
];

/** The nouns naming what a question's frame asks for ("length" for "how long"); none for most questions. */
export function attributesAskedBy(question: string): string[] {
  const q = question.toLowerCase();
  return ATTRIBUTES_ASKED.flatMap(([frame, nouns]) => (frame.test(q) ? nouns : []));
}

/** "What is X?", "What are X?", "What does X mean?": the sentence that says what X is. */
const DEFINITION_QUESTION =
  /^\s*(what|who)('s| is| are| was| were) (?<subject>.+?)\??\s*$|^\s*what does (?<term>.+?) (mean|stand for)\??\s*$/i;

/**
 * "What is X?" asks what X is when X is a term of a few words ("What is packet switching?"). A
 * longer X ("What was the English title of Polo's book?") asks for something about it, and a
 * sentence saying "… English lectures were …" is no answer to that. Chosen on half A of the SQuAD
 * development set (decision 018).
 */
const DEFINED_TERM_WORDS = 3;

export function answerKindOf(question: string): AnswerKind {
  const q = question.toLowerCase();
  if (PHONE_QUESTION.test(q)) return "phone";
  if (NUMBER_QUESTION.test(q)) return MONEY_WORDS.test(q) ? "amount" : "number";
  if (PERSON_QUESTION.test(q)) return "person";
  if (DATE_QUESTION.test(q)) return "date";
  if (PLACE_QUESTION.test(q)) return "place";
  if (DEFINITION_QUESTION.test(q) && definedSubjectOf(question).length <= DEFINED_TERM_WORDS) return "definition";
  return "any";
}

/** The words of what a "what is X?" question asks about (X), lower case. */
export function definedSubjectOf(question: string): string[] {
  const match = DEFINITION_QUESTION.exec(question);
  const subject = match?.groups?.subject ?? match?.groups?.term ?? "";
  return (subject.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => !/^(a|an|the|of|in|on|for|to|and)$/.test(word),
  );
}

/** A verb that says what something is: the word after the subject of a definition. */
const DEFINING = /^(is|are|was|were|means|mean|refers|describes|denotes|stands|consists)$/;

/** Whether a sentence says what the subject is: a subject word, then a defining verb within four words. */
function defines(words: string[], subject: string[]) {
  const lower = words.map((w) => w.toLowerCase());
  return lower.some(
    (word, at) => subject.includes(word) && lower.slice(at + 1, at + 5).some((next) => DEFINING.test(next)),
  );
}

const NUMBER_WORDS =
  /^(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|hundreds|thousand|thousands|million|millions|billion|dozen|dozens|half|once|twice|single|double|triple)$/;
const CURRENCY_WORDS = /^(dollars?|euros?|pounds?|cents?|pence|yen|usd|eur|gbp|free)$/;
const MONTHS =
  /^(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$/;
const DAY_WORDS =
  /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?|today|tomorrow|yesterday|daily|weekly|monthly|annually|yearly|morning|afternoon|evening|night|midnight|noon|spring|summer|fall|autumn|winter|semester|term|century|decade)$/;
const YEAR = /^(1[5-9]\d\d|20\d\d)s?$/;
const TIME = /^\d{1,2}([:.]\d\d)?(am|pm)?$/;

/** Words of a sentence as written (capitals kept), without surrounding punctuation. */
export const wordsAsWritten = (text: string) =>
  text
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}$]+|[^\p{L}\p{N}%]+$/gu, ""))
    .filter(Boolean);

/** Whether one word (as written) is an answer of `kind` that the question does not already hold. */
export function isAnswerWord(word: string, kind: AnswerKind, questionWords: Set<string>): boolean {
  const lower = word.toLowerCase();
  if (questionWords.has(lower)) return false;
  switch (kind) {
    case "number":
      // A figure, not a name holding a digit ("O3", "G40", "v8").
      return /^[$€£¥]?\d/.test(word) || NUMBER_WORDS.test(lower);
    case "amount":
      // A sum with its currency ("$12,400", "€90"), a currency named after a figure ("400 euros"), or "free".
      return /^[$€£¥]\d/.test(word) || CURRENCY_WORDS.test(lower);
    case "phone":
      return /^\+?\(?\d/.test(word);
    case "date":
      return YEAR.test(lower) || MONTHS.test(lower) || DAY_WORDS.test(lower) || TIME.test(lower);
    case "person":
    case "place":
      return /^\p{Lu}[\p{L}'’-]+$/u.test(word);
    case "definition":
    case "any":
      return false;
  }
}

const CAPITALISED = /^\p{Lu}[\p{L}'’.-]*$/u;
/** Titles before a name: they make a run of capitals but name no one new ("Mr Mugabe"). */
const TITLES = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "sir",
  "president",
  "senator",
  "minister",
  "the",
  "a",
  "an",
  "in",
  "on",
  "at",
  "then",
  "but",
  "and",
]);

/**
 * Names of people or bodies: runs of two or more capitalised words ("Fidelis Mukonori", "Smart
 * Projects") with at least one the question does not hold. A lone capitalised word is too often
 * an adjective or a sentence's first word to count.
 */
function holdsName(words: string[], questionWords: Set<string>) {
  let run: string[] = [];
  for (const word of [...words, ""]) {
    if (CAPITALISED.test(word)) {
      run.push(word);
      continue;
    }
    const fresh = run.filter(
      (w) =>
        !questionWords.has(w.toLowerCase().replace(/['’]s$/, "")) && !TITLES.has(w.toLowerCase().replace(/\.$/, "")),
    );
    if (run.length >= 2 && fresh.length) return true;
    run = [];
  }
  return false;
}

/**
 * Whether `text` holds an answer of `kind` that is not simply a word of the question. A definition
 * needs the question's subject (`subject`, from definedSubjectOf).
 */
export function holdsAnswerOfKind(
  text: string,
  kind: AnswerKind,
  questionWords: Set<string>,
  subject: string[] = [],
): boolean {
  if (kind === "any") return true;
  const words = wordsAsWritten(text);
  if (kind === "person") return holdsName(words, questionWords);
  if (kind === "definition") return defines(words, subject);
  if (kind === "phone") return (text.match(PHONE_NUMBER) ?? []).some((found) => found.replace(/\D/g, "").length >= 7);
  // A place does not count at the start of the sentence, where every word is capitalised.
  return (
    words.slice(kind === "place" ? 1 : 0).some((word) => isAnswerWord(word, kind, questionWords)) ||
    (kind === "date" && /\b\d{1,2}(:\d\d)?\s?(am|pm|a\.m\.|p\.m\.)/i.test(text))
  );
}

/** Questions whose answer is several sentences: how-tos, steps, lists. */
const SEVERAL =
  /\bhow (do|can|should|would|could) (i|we|you)\b|\bhow to\b|\bsteps?\b|\blist\b|\bwhat (are|were) (the|some)\b|\bwhat do i need\b|\bways? to\b/;

export const wantsSeveralSentences = (question: string) => SEVERAL.test(question.toLowerCase());
