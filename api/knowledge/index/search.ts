import { sql, type SQL } from "drizzle-orm";
import { DEFAULT_TRIGGER_POINT, TRACE_LEFT_OUT_PAGES } from "@contract";
import { penaltyRulesFor, type PenaltyRule } from "../../controls/finetunings";
import { rowsAsOne, rowsOf } from "../../db/rows";
import type { ApiDeps } from "../../deps";
import { corpusStats, inverseFrequency, type CorpusStats } from "./corpus-stats";
import {
  anyLexemeQuery,
  everyLexemeQuery,
  fieldsOf,
  lexemeOf,
  lexemesOf,
  phraseQuery,
  wordsOf,
} from "../words/lexemes";
import { isEnglishWord } from "../words/spelling";
import { nearestStoredWord, vocabularyOf } from "./vocabulary";
import {
  BATCH_READ,
  BM25_B,
  BM25_K1,
  CONTEXT_WEIGHT,
  EVERYWHERE_SHARE,
  FIELD_BOOST,
  FIELD_READ,
  FIRST_STAGE_K,
  PAGE_EVIDENCE,
  PROXIMITY_WORDS,
  READ_BUDGET,
} from "./ranking-constants";

export interface SearchOptions {
  appId: number;
  /** The visitor's question, as typed. */
  query: string;
  /** Whose finetuning penalties apply: Default's, plus (and over) this trigger point's own. */
  triggerPoint?: string;
  limit?: number;
  /**
   * Words the question leans on without saying them: in a follow-up ("What are its admission
   * requirements?"), the visitor's previous question. They are searched too, at CONTEXT_WEIGHT of
   * their weight; a question with no key word of its own finds nothing, whatever its context.
   */
  context?: string;
}

export interface SearchHit {
  chunkId: number;
  urlId: number | null;
  fileId: number | null;
  /** The page's address (URL chunks) … */
  url: string | null;
  /** … or the uploaded file's name (file chunks). */
  fileName: string | null;
  title: string;
  position: number;
  headingPath: string[];
  text: string;
  /** When the page version (or file) holding the passage was indexed: an answer's trace shows it. */
  indexedAt: string | null;
  /**
   * Share of the question's key-word weight (stemmed, stop words left out, each word weighted by
   * its rarity in the client's knowledge store) that the passage contains, 0–1: what the quality
   * check's confidence threshold compares.
   */
  baseScore: number;
  /** Okapi BM25 of the passage for the question: what orders passages. */
  bm25: number;
  /** baseScore × (1 − penalty) for every finetuning rule matching the passage's page. */
  score: number;
  /** bm25 × the same penalties: the order of the hits. */
  relevance: number;
  /** The share of the question's key-word weight its page (or file) holds across the passages retrieval weighed. */
  pageShare: number;
  /** The share of the question's key-word weight held by the passage's densest run of PROXIMITY_WORDS words. */
  near: number;
  /** The question's key words (lexemes) the passage holds. */
  held: string[];
  /** The rules that lowered this passage. */
  penalties: { id: number; type: PenaltyRule["type"]; pattern: string; penalty: number }[];
}

/** A key word of the question as the index stores it (English stem) and how telling it is. */
export interface QuestionTerm {
  lexeme: string;
  idf: number;
  /** A word of SearchOptions.context only, not of the question itself. */
  context?: boolean;
  /** Some passage of the client's knowledge store holds it (it was counted in the store's statistics). */
  stored?: boolean;
  /** How many passages of the store hold it. */
  passages?: number;
  /** The word as the question wrote it (lower case): the first of its words with this lexeme. */
  word?: string;
  /** The store held no such word, and the question's word was read as the stored one it nearly is (or a code as the store writes it). */
  corrected?: boolean;
}

/** The words of a question searched at most: a longer message is searched by its last ones (searchablePartOf). */
export const MAX_QUERY_WORDS = 64;

/**
 * The part of a long message that is searched: its last MAX_QUERY_WORDS words, after an ellipsis.
 * A visitor who writes at length tells their story first and asks last ("My daughter … What is the
 * fee?"); the first words would have missed the question. A shorter message is searched whole.
 */
export function searchablePartOf(message: string) {
  const words = message.trim().split(/\s+/);
  return words.length > MAX_QUERY_WORDS ? `…${words.slice(-MAX_QUERY_WORDS).join(" ")}` : message;
}
/** A URL whose path ends in .pdf was indexed as a PDF (the pipeline keeps no content type per URL). */
const PDF_URL = String.raw`\.pdf([?#]|$)`;
/**
 * Misspelt key words of one question looked up among the store's words at most (each look-up
 * scans the stored words of about its length: about a millisecond on 200,000 of them).
 */
const MAX_CORRECTED_WORDS = 3;

/** A candidate passage as the database cuts it out: its lengths, and its key words' positions in text and fields. */
interface CandidateRow {
  id: number;
  url_id: number | null;
  file_id: number | null;
  length: number;
  field_length: number;
  every: string;
  field: string;
  factor: number;
  matched: number[] | null;
}

/** A lexeme as it opens its entry in a tsvector's text form: quoted, its quotes and backslashes doubled. */
export const tsvectorEntry = (lexeme: string) => `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;

const [SPACE, COMMA, DIGIT_0, DIGIT_9] = [32, 44, 48, 57];

/**
 * A lexeme's positions in a tsvector's text form (`'word':3A,17A 'other':5A` gives 3 and 17 for
 * "word"), found by its entry (`tsvectorEntry`): null when absent, none when kept without positions.
 * A plain search rather than a parse of every entry: this runs for a thousand small tsvectors a
 * question.
 */
export function positionsIn(tsvector: string, entry: string): number[] | null {
  for (let at = tsvector.indexOf(entry); at !== -1; at = tsvector.indexOf(entry, at + 1)) {
    // An entry starts the text or follows a space; inside another lexeme the quote would be doubled.
    if (at > 0 && tsvector.charCodeAt(at - 1) !== SPACE) continue;
    const end = at + entry.length;
    if (tsvector[end] !== ":") return end === tsvector.length || tsvector[end] === " " ? [] : null;
    const positions: number[] = [];
    let position = 0;
    for (let i = end + 1; ; i++) {
      const code = i < tsvector.length ? tsvector.charCodeAt(i) : SPACE;
      if (code >= DIGIT_0 && code <= DIGIT_9) position = position * 10 + code - DIGIT_0;
      else if (code === COMMA || code === SPACE) {
        positions.push(position);
        if (code === SPACE) return positions;
        position = 0;
      } // anything else is a weight letter after the digits
    }
  }
  return null;
}

/** Where a key word stands in a passage's text, or in its title and headings (its word position). */
interface KeyWordAt {
  position: number;
  term: number;
}

/**
 * The most key-word weight that any PROXIMITY_WORDS consecutive words of a passage hold, each key
 * word counted once (a window sliding over the key words' positions, sorted here).
 */
function weightNearTogether(found: KeyWordAt[], weights: number[]) {
  found.sort((a, b) => a.position - b.position);
  const inWindow = new Map<number, number>();
  let weight = 0;
  let best = 0;
  let left = 0;
  for (const word of found) {
    const count = inWindow.get(word.term) ?? 0;
    if (!count) weight += weights[word.term];
    inWindow.set(word.term, count + 1);
    while (word.position - found[left].position >= PROXIMITY_WORDS) {
      const leaving = found[left++];
      const remaining = inWindow.get(leaving.term)! - 1;
      inWindow.set(leaving.term, remaining);
      if (!remaining) {
        inWindow.delete(leaving.term);
        weight -= weights[leaving.term];
      }
    }
    best = Math.max(best, weight);
  }
  return best;
}

/**
 * BM25F of each candidate, best first (ties by id, so the order is stable): a key word's count in
 * the text and its count in the fields are each divided by their own length norm, the field count
 * weighted FIELD_BOOST, and the sum saturated once, then scaled by its page's evidence
 * (PAGE_EVIDENCE). How close together its key words stand is measured for the quality check
 * (`near`), not ranked by (ranking-constants.ts, PROXIMITY_WORDS). The confidence
 * (base score) is the share of the question's idf weight the passage holds, however they stand.
 * Candidates holding no key word, or removed by a penalty of 1, are left out.
 */
function scoreCandidates(
  rows: CandidateRow[],
  terms: QuestionTerm[],
  totalWeight: number,
  stats: { averageLength: number; averageFieldLength: number },
) {
  const entries = terms.map((term) => tsvectorEntry(term.lexeme));
  const termWeights = terms.map((term) => term.idf);
  const scored: {
    id: number;
    page: string;
    bm25: number;
    baseScore: number;
    factor: number;
    matched: number[];
    near: number;
    held: string[];
    pageShare: number;
  }[] = [];
  // The key words each page (or file) holds in any of its candidate passages: its page evidence.
  const pageWords = new Map<string, Set<number>>();
  const seen = new Set<number>();
  for (const row of rows) {
    if (!row.every || seen.has(Number(row.id))) continue;
    seen.add(Number(row.id));
    const textNorm = 1 - BM25_B + (BM25_B * Number(row.length)) / (stats.averageLength || 1);
    const fieldNorm = 1 - BM25_B + (BM25_B * Number(row.field_length)) / (stats.averageFieldLength || 1);
    let bm25 = 0;
    let held = 0;
    const heldLexemes: string[] = [];
    const inText: KeyWordAt[] = [];
    const inFields: KeyWordAt[] = [];
    const page = row.url_id === null ? `f${row.file_id}` : `u${row.url_id}`;
    let words = pageWords.get(page);
    if (!words) pageWords.set(page, (words = new Set()));
    for (const [index, term] of terms.entries()) {
      const positions = positionsIn(row.every, entries[index]);
      if (!positions) continue;
      words.add(index);
      const all = positions.length || 1;
      const inFieldsAt = row.field ? positionsIn(row.field, entries[index]) : null;
      const fieldCount = inFieldsAt ? inFieldsAt.length || 1 : 0;
      // Fields' words follow the text's (tsvectorOf): nearness is measured in each apart, so that a
      // title in the question's words counts as near as a sentence of the text in them.
      for (const position of positions)
        (inFieldsAt?.includes(position) ? inFields : inText).push({ position, term: index });
      const tf = (all - fieldCount) / textNorm + (FIELD_BOOST * fieldCount) / fieldNorm;
      bm25 += (term.idf * (tf * (BM25_K1 + 1))) / (tf + BM25_K1);
      held += term.idf;
      heldLexemes.push(term.lexeme);
    }
    const factor = Number(row.factor);
    if (!(bm25 * factor > 0)) continue;
    scored.push({
      id: Number(row.id),
      page,
      bm25,
      baseScore: held / totalWeight,
      factor,
      matched: (row.matched ?? []).map(Number),
      near: Math.max(weightNearTogether(inText, termWeights), weightNearTogether(inFields, termWeights)) / totalWeight,
      held: heldLexemes,
      pageShare: 0,
    });
  }
  const pageShare = new Map(
    [...pageWords].map(([page, held]) => [
      page,
      [...held].reduce((sum, index) => sum + terms[index].idf, 0) / totalWeight,
    ]),
  );
  for (const passage of scored) {
    const share = pageShare.get(passage.page)!;
    passage.pageShare = share;
    passage.bm25 *= 1 - PAGE_EVIDENCE + PAGE_EVIDENCE * share;
  }
  return scored.sort((a, b) => b.bm25 * b.factor - a.bm25 * a.factor || a.id - b.id);
}

/** What the first stage found: plain BM25's best passages, and how far they can be trusted. */
export interface FirstStage {
  /** The best FIRST_STAGE_K passages read, by plain BM25, best first (ties by id). */
  passages: { id: number; bm25: number }[];
  /** Passages read (at most the budget, READ_BUDGET unless told). */
  read: number;
  /** `passages` are plain BM25's best FIRST_STAGE_K over every passage holding a key word. */
  exact: boolean;
  /** The first of `passages` is plain BM25's first over every passage holding a key word. */
  firstExact: boolean;
}

/** A passage as a first-stage read cuts it out: its length and its key words' positions. */
interface CountedRow {
  id: number;
  length: number;
  every: string;
}

/**
 * The first stage: plain Okapi BM25 (no field boost, no page evidence, no proximity) over every
 * passage of the client that holds a key word, exact for its best FIRST_STAGE_K by MaxScore. A
 * key word's count is over all the passage's positions (text and fields), its length the count of
 * its distinct stems.
 *
 * The key words are read rarest first, each read taking every passage that holds the next words
 * and none read before (the GIN index answers `next & !(read)`), and scoring each passage it takes
 * on all the key words. A passage not read yet holds only words not read yet, so it scores at most
 * the sum of their idf × (k1 + 1): the reads stop once the K-th best score read reaches that sum.
 *
 * A word whose passages not read yet would take the reads past the budget (READ_BUDGET) is not
 * read. Instead, the passages that hold every word left are read (those whose title or headings
 * hold them all first): once they all are, a passage left unread lacks one of those words at least,
 * and the reads are exact if the K-th best score reaches what it can still score. Past the budget,
 * when the first passage read is already sure to be plain BM25's first and they may not all fit,
 * they are read only to make up FIRST_STAGE_K passages.
 *
 * So the first passage is plain BM25's first (`firstExact`) unless a word's passages not read yet
 * are more than the budget left and then either the passages holding every word left are more
 * than it too, or, all read, none scores as much as a passage holding all the words left but one
 * might. The best K are exact (`exact`) under the same condition with the K-th best score in place
 * of the first's. A word's passage count that is too low (counted before many pages were indexed)
 * can also cut a word's read at the budget.
 */
export async function firstStage(
  appId: number,
  terms: QuestionTerm[],
  stats: Pick<CorpusStats, "passages" | "averageLength" | "frequencies">,
  db: ApiDeps["db"],
  {
    kept = { sources: sql``, filter: sql`` },
    budget = READ_BUDGET,
  }: { kept?: { sources: SQL; filter: SQL }; budget?: number } = {},
): Promise<FirstStage> {
  const entries = terms.map((term) => tsvectorEntry(term.lexeme));
  const lexemes = sql`array[${sql.join(
    terms.map((t) => sql`${t.lexeme}`),
    sql`, `,
  )}]::text[]`;
  const averageLength = stats.averageLength || 1;
  const bounds = terms.map((term) => term.idf * (BM25_K1 + 1));
  const holding = terms.map((term) => Math.min(stats.passages, stats.frequencies.get(term.lexeme) ?? 0));
  const share = (index: number) => holding[index] / (stats.passages || 1);
  const rarestFirst = terms.map((_, index) => index).sort((a, b) => holding[a] - holding[b] || a - b);
  const sumOf = (indexes: number[]) => indexes.reduce((sum, index) => sum + bounds[index], 0);
  const lexemesAt = (indexes: number[]) => indexes.map((index) => terms[index].lexeme);

  const scores = new Map<number, number>();
  // The passages read that hold each key word.
  const readHolding = terms.map(() => 0);
  let left = budget;
  // The passages read, in plain BM25's order (ties by id).
  const ranked = () => [...scores].sort(([a, x], [b, y]) => y - x || a - b);
  const kthBest = () => (scores.size >= FIRST_STAGE_K ? ranked()[FIRST_STAGE_K - 1][1] : -Infinity);
  /** Reads the rows `where` picks (up to the budget left) and scores them; whether it read them all. */
  const read = async (where: SQL, order = sql``, most = left) => {
    const rows = await rowsAsOne<CountedRow>(
      db,
      sql`
      select c.id, length(c.tsv) as length, ts_filter(setweight(c.tsv, 'A', ${lexemes}), '{a}')::text as every
      from chunks c ${kept.sources}
      where c.app_id = ${appId} and ${where} ${kept.filter} ${order} limit ${Math.min(most, left) + 1}`,
    );
    const complete = rows.length <= Math.min(most, left);
    if (!complete) rows.length = Math.min(most, left);
    left -= rows.length;
    for (const row of rows) {
      const id = Number(row.id);
      if (scores.has(id)) continue;
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * Number(row.length)) / averageLength);
      let bm25 = 0;
      for (const [index, term] of terms.entries()) {
        const positions = positionsIn(row.every, entries[index]);
        if (!positions) continue;
        readHolding[index]++;
        const count = positions.length || 1;
        bm25 += (term.idf * count * (BM25_K1 + 1)) / (count + norm);
      }
      scores.set(id, bm25);
    }
    return complete;
  };
  const matching = (query: string) => sql`c.tsv @@ ${query}::tsquery`;

  // Words read whole, rarest first, while they fit the budget: a word adds the passages holding it
  // that were not read yet (holding a word read before).
  const done: number[] = [];
  let waiting = rarestFirst;
  const notDone = () => (done.length ? ` & !(${anyLexemeQuery(lexemesAt(done))})` : "");
  const adds = (index: number) =>
    Math.max(0, Math.min(holding[index] - readHolding[index], stats.passages - scores.size));
  // The most a passage not read yet can score.
  let ceiling = sumOf(waiting);
  while (waiting.length && kthBest() < ceiling) {
    let batch = 1;
    let expected = adds(waiting[0]);
    if (expected > left) break;
    while (
      batch < waiting.length &&
      expected + adds(waiting[batch]) <= left &&
      (expected + adds(waiting[batch]) <= BATCH_READ || scores.size + expected < FIRST_STAGE_K)
    )
      expected += adds(waiting[batch++]);
    const words = waiting.slice(0, batch);
    if (!(await read(matching(`(${anyLexemeQuery(lexemesAt(words))})${notDone()}`)))) break;
    done.push(...words);
    waiting = waiting.slice(batch);
    ceiling = sumOf(waiting);
  }

  // Past the budget: the passages holding every word left. A word found nearly everywhere is left
  // out of this look-up (every passage is taken as holding it), as it narrows nothing and the index
  // would read all its entries; unless no other word is left.
  const narrowing = waiting.filter((index) => share(index) < EVERYWHERE_SHARE);
  const telling = narrowing.length ? narrowing : waiting;
  // Those not read yet are at most as many as the rarest telling word's passages not read yet.
  const unreadHoldingEvery = Math.min(...telling.map((index) => holding[index] - readHolding[index]));
  const firstKept = scores.size > 0 && ranked()[0][1] >= ceiling;
  // They are read whole (up to the budget) when that may make the first passage plain BM25's
  // first, or will make the best K exact; otherwise (and for words found everywhere alone) only
  // to make up FIRST_STAGE_K passages.
  const thorough = narrowing.length > 0 && (!firstKept || unreadHoldingEvery <= left);
  const most = Math.min(left, thorough ? left : FIRST_STAGE_K - scores.size);
  if (telling.length && kthBest() < ceiling && most > 0) {
    const every = everyLexemeQuery(lexemesAt(telling));
    const before = new Set(scores.keys());
    // Those under a title or heading holding them all first, as plain BM25 counts a word there once
    // more: where they may be more than the budget, these are its likeliest best.
    if (thorough && unreadHoldingEvery > left)
      await read(
        sql`${fieldsOf(sql`c.tsv`)} @@ ${every}::tsquery${done.length ? sql` and not ${matching(anyLexemeQuery(lexemesAt(done)))}` : sql``}`,
        sql`order by length(${fieldsOf(sql`c.tsv`)}), c.id`,
        FIELD_READ,
      );
    const underFields = [...scores.keys()].filter((id) => !before.has(id));
    const excluded = underFields.length ? sql` and c.id <> all(${`{${underFields.join(",")}}`}::int[])` : sql``;
    // Once they are all read, every passage left unread lacks one of the telling words at least.
    const rest = Math.min(left, thorough ? left : FIRST_STAGE_K - scores.size);
    if (rest > 0 && (await read(sql`${matching(`${every}${notDone()}`)}${excluded}`, sql``, rest)))
      ceiling -= Math.min(...telling.map((index) => bounds[index]));
  }

  const best = ranked();
  const whole = !waiting.length;
  return {
    passages: best.slice(0, FIRST_STAGE_K).map(([id, bm25]) => ({ id, bm25 })),
    read: budget - left,
    exact: whole || kthBest() >= ceiling,
    firstExact: whole || (best.length > 0 && best[0][1] >= ceiling),
  };
}

/**
 * A finetuning pattern as an ILIKE pattern: it matches anywhere in the URL or file name, any case;
 * `*` stands for any run of characters; a leading `^` ties it to the start and a trailing `$` to
 * the end, so `^https://example.edu/$` names the home page alone, not every page under it (the
 * rule "Exclude" makes from an answer's trace). `%`, `_` and `\` match themselves.
 */
export function likePattern(pattern: string) {
  const fromStart = pattern.length > 1 && pattern.startsWith("^");
  const toEnd = pattern.length > (fromStart ? 2 : 1) && pattern.endsWith("$");
  const body = pattern.slice(fromStart ? 1 : 0, toEnd ? -1 : undefined);
  const escaped = body.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, "%");
  return `${fromStart ? "" : "%"}${escaped}${toEnd ? "" : "%"}`;
}

/** When a rule applies to a page (alias u, urls). */
function ruleMatchesPage(rule: PenaltyRule): SQL {
  const urlMatches = sql`(u.url ilike ${likePattern(rule.pattern)} escape '\\')`;
  switch (rule.type) {
    case "url_pattern":
      return urlMatches;
    case "html_weightage":
      return sql`u.url !~* ${PDF_URL} and ${urlMatches}`;
    case "pdf_weightage":
      return sql`u.url ~* ${PDF_URL} and ${urlMatches}`;
  }
}

/** When a rule applies to an uploaded file (alias f, files): only a PDF rule can. */
const ruleMatchesFile = (rule: PenaltyRule): SQL | null =>
  rule.type === "pdf_weightage" ? sql`f.file_name ilike ${likePattern(rule.pattern)} escape '\\'` : null;

/** When a rule applies to a chunk row (aliases: c chunks, u urls, f files). */
function ruleMatches(rule: PenaltyRule): SQL {
  const page = sql`(c.url_id is not null and ${ruleMatchesPage(rule)})`;
  const file = ruleMatchesFile(rule);
  return file ? sql`((c.file_id is not null and ${file}) or ${page})` : page;
}

/** A rule that removes pages from retrieval (penalty 1), and pages of this question it removed. */
export interface LeftOutByRule {
  type: PenaltyRule["type"];
  pattern: string;
  penalty: number;
  /** Pages (their addresses) or files (their names) holding a key word of the question that it left out, at most TRACE_LEFT_OUT_PAGES … */
  pages: string[];
  /** … and whether it left out more. */
  morePages: boolean;
}

/**
 * The pages each rule of penalty 1 kept out of a question's candidates: those holding one of its
 * key words (the first stage reads no other), a few a rule, for the answer's trace to say. Read
 * from the rule's side, so that a rule naming one page costs a look-up of that page (the URLs'
 * trigram index) and its few passages, however common the question's words; a rule matching many
 * pages stops at the few it reports. Read only when such a rule applies.
 */
async function leftOutBy(appId: number, removing: PenaltyRule[], terms: QuestionTerm[], db: ApiDeps["db"]) {
  const holding = sql`c.tsv @@ ${anyLexemeQuery(terms.map((term) => term.lexeme))}::tsquery`;
  const perRule = removing.map((rule) => {
    const file = ruleMatchesFile(rule);
    const files = file
      ? sql` union all
        select f.file_name from files f
        where f.app_id = ${appId} and ${file} and exists (select 1 from chunks c where c.file_id = f.id and ${holding})`
      : sql``;
    return sql`(select ${rule.id}::int as rule, page from (
        select u.url as page from urls u
        where u.app_id = ${appId} and ${ruleMatchesPage(rule)}
          and exists (select 1 from chunks c where c.url_id = u.id and ${holding})${files}
      ) as left_out limit ${TRACE_LEFT_OUT_PAGES + 1})`;
  });
  const rows = await rowsAsOne<{ rule: number; page: string }>(db, sql.join(perRule, sql` union all `));
  return removing.flatMap((rule): LeftOutByRule[] => {
    const pages = rows.filter((row) => row.rule === rule.id).map((row) => row.page);
    if (!pages.length) return [];
    const { type, pattern, penalty } = rule;
    return [
      {
        type,
        pattern,
        penalty,
        pages: pages.slice(0, TRACE_LEFT_OUT_PAGES),
        morePages: pages.length > TRACE_LEFT_OUT_PAGES,
      },
    ];
  });
}

/**
 * Words that frame a question rather than say what it is about ("how much", "tell me", "please",
 * "what does the page say about").
 * The index's stop words cover most ("what", "is", "the"); these it keeps, and as they are rare in
 * reference pages they would otherwise weigh the most.
 */
const FRAMING =
  /\bhow (much|many|long|big|large|small|old|often|far|soon|fast)\b|\b(tell|please|know|want|like|give|get|anyone|someone|something|anything|thanks|thank|hi|hello|exactly|actually|really|say|says|said|mention|mentions|mentioned|page|describe|describes|explain|explains|regarding|concerning)\b/g;

/**
 * "What does X cost?", "How much will X cost?": the verb asks for an amount (the answer kind), it is
 * not what the question is about; kept, it would pick the sentence saying what something else costs.
 */
const COST_FRAME = /\b(does|do|did|will|would|should|might)\b(.{1,80}?)\bcosts?\b/g;

/**
 * "In what year …?", "By which date …?": the noun names the kind of answer asked for, a date; the
 * sentence that answers says "in 1622", not "year".
 */
const DATE_FRAME = /\b(what|which)\s+(year|years|date|month|century|decade)\b/g;

/** The words of a question that may be key words, lower case, in order. */
export function questionWords(query: string) {
  const lower = query.toLowerCase().replace(COST_FRAME, "$1$2").replace(DATE_FRAME, "$1");
  return wordsOf(lower.replace(FRAMING, (phrase) => (phrase.startsWith("how ") ? "how" : " ")))
    .filter((w) => w !== "or")
    .slice(0, MAX_QUERY_WORDS);
}

/** Whether a question has a key word of its own, one retrieval can search by (not only framing and stop words). */
export const hasKeyWords = (query: string) => lexemesOf(questionWords(query)).length > 0;

/**
 * The question's lexemes with any found in no passage replaced by the stored word it nearly is
 * ("gaurentee" ⇒ "guarantee", "ARPNET" ⇒ "ARPANET") or by a code as the store writes it ("F1" ⇒
 * "F-1", codesAsStored), and the corpus figures for them. Only words
 * that are not English are read so (a real word the store lacks is not a typo); a lexeme with no
 * stored word near enough stays as asked and weighs against the confidence, as a word of
 * something the store does not cover should.
 */
async function withTyposCorrected(appId: number, words: string[], asked: string[], db: ApiDeps["db"]) {
  let stats = await corpusStats(appId, asked, db);
  const unknown = asked.filter((lexeme) => !stats.frequencies.get(lexeme));
  const readAs = (corrected: Map<string, string[]>) => {
    const correctionOf = (lexeme: string) => corrected.get(lexeme) ?? [lexeme];
    return { lexemeList: [...new Set(asked.flatMap(correctionOf))].sort(), stats, correctionOf };
  };
  // Nothing to correct (or no way to): the question as asked.
  if (!unknown.length) return readAs(new Map());
  const codes = await codesAsStored(appId, words, unknown, db);
  const corrected = codes.readings;
  if (codes.stats && corrected.size) stats = codes.stats;
  const misspelt: string[] = [];
  for (const lexeme of unknown) {
    if (corrected.has(lexeme)) continue;
    const written = words.filter((word) => lexemeOf(word) === lexeme);
    if (!(await Promise.all(written.map(isEnglishWord))).some(Boolean)) misspelt.push(lexeme);
  }
  // Without the store's words (a failed read) the question is answered as asked.
  const vocabulary = misspelt.length ? await vocabularyOf(appId, db).catch(() => null) : null;
  if (!vocabulary) return readAs(corrected);
  const nearest = new Map(
    misspelt.slice(0, MAX_CORRECTED_WORDS).flatMap((lexeme) => {
      const stored = nearestStoredWord(lexeme, vocabulary);
      return stored ? [[lexeme, stored] as const] : [];
    }),
  );
  if (!nearest.size) return readAs(corrected);
  stats = await corpusStats(appId, [...nearest.values()], db);
  // A word read into the list but gone from the store since is no correction.
  for (const [lexeme, stored] of nearest) if (stats.frequencies.get(stored)) corrected.set(lexeme, [stored]);
  return readAs(corrected);
}

const LETTERS_OR_DIGITS = /\p{L}+|\p{N}+/gu;
const ALL_LETTERS = /^\p{L}+$/u;
const ALL_DIGITS = /^\p{N}+$/u;

/**
 * A code the question writes otherwise than the store: "F1" where the pages say "F-1" (or "F 1"),
 * "I-20" where they say "I20". The index reads "F-1" as two words and "F1" as one, so either way
 * round the question's word is one no passage holds. A word the store lacks that joins letters and
 * digits is read as its parts when some passage holds them one after the other (as "F-1" is
 * written: parts found apart, "Internet2" as "internet" here and "2" there, are another thing); a
 * run of letters or of digits it lacks, as that run joined with its neighbour of the other kind when
 * the store holds the joined word. Each reading is kept only when the store holds it, as a
 * misspelling's is.
 */
async function codesAsStored(appId: number, words: string[], unknown: string[], db: ApiDeps["db"]) {
  const readings = new Map<string, string[]>();
  for (const lexeme of unknown) {
    // As many as misspellings are read: each reading may cost a look-up in the index.
    if (readings.size >= MAX_CORRECTED_WORDS) break;
    const parts = lexeme.match(LETTERS_OR_DIGITS) ?? [];
    if (parts.length > 1) {
      const partLexemes = parts.map(lexemeOf);
      if (partLexemes.every(Boolean)) readings.set(lexeme, partLexemes);
      continue;
    }
    const letters = ALL_LETTERS.test(lexeme);
    if (!letters && !ALL_DIGITS.test(lexeme)) continue;
    const otherKind = letters ? ALL_DIGITS : ALL_LETTERS;
    words.forEach((word, index) => {
      if (readings.has(lexeme) || lexemeOf(word) !== lexeme) return;
      const [before, after] = [words[index - 1], words[index + 1]];
      const joined =
        after !== undefined && otherKind.test(after)
          ? word + after
          : before !== undefined && otherKind.test(before)
            ? before + word
            : null;
      if (joined) readings.set(lexeme, [lexemeOf(joined)]);
    });
  }
  if (!readings.size) return { readings, stats: null };
  const stats = await corpusStats(appId, [...new Set([...readings.values()].flat())], db);
  for (const [lexeme, reading] of readings)
    if (!reading.every((part) => part && stats.frequencies.get(part))) readings.delete(lexeme);
  for (const [lexeme, reading] of readings)
    if (reading.length > 1 && !(await holdsPhrase(appId, reading, db))) readings.delete(lexeme);
  return { readings, stats };
}

/** Whether some passage of the client holds the lexemes one after the other (through the GIN index on chunks.tsv). */
async function holdsPhrase(appId: number, lexemes: string[], db: ApiDeps["db"]) {
  const rows = rowsOf<{ held: boolean }>(
    await db.execute(sql`select exists (
      select 1 from chunks where chunks.app_id = ${appId} and chunks.tsv @@ ${phraseQuery(lexemes)}::tsquery
    ) as held`),
  );
  return Boolean(rows[0]?.held);
}

/**
 * Each lexeme's first word as the question wrote it, and whether that word was read as a stored
 * word it nearly is: what an answer's trace names its key words by, where the index knows stems.
 */
function wordsByLexeme(words: string[], correctionOf: (lexeme: string) => string[]) {
  const written = new Map<string, { word: string; corrected?: true }>();
  for (const word of words) {
    const asked = lexemeOf(word);
    if (!asked) continue;
    const readings = correctionOf(asked);
    // A code read as its parts ("f1" as "f" and "1") names each part by itself.
    for (const lexeme of readings)
      if (!written.has(lexeme))
        written.set(
          lexeme,
          lexeme === asked ? { word } : { word: readings.length > 1 ? lexeme : word, corrected: true },
        );
  }
  return written;
}

/**
 * Full-text retrieval over a client's chunks, ranked by Okapi BM25 and weighted by the client's
 * AI Finetuning penalties: the chat runtime's retrieval. In two stages (docs/decisions/039): plain
 * BM25 over every passage holding a key word finds the best FIRST_STAGE_K through the GIN index on
 * chunks.tsv (every key word weighted by its rarity in the client's store, its count in the
 * passage saturating, long passages normalised); then BM25F (titles and headings boosted), page
 * evidence and the penalties reorder those, and only those. A penalty multiplies the
 * score down; a penalty of 1 removes a page from retrieval altogether (the first stage does not
 * read it; which rules removed pages holding the question's key words is read beside it, for the
 * answer's trace). Penalties reorder all the first stage's passages before the limit is taken, so a
 * heavily penalised passage never hides a better one beyond the limit.
 */
export async function searchChunks(options: SearchOptions, deps: Pick<ApiDeps, "db">): Promise<SearchHit[]> {
  return (await retrieve(options, deps)).hits;
}

/** searchChunks, plus the question's key words with their weights (what answer composition weighs sentences by). */
export async function retrieve(
  options: SearchOptions,
  deps: Pick<ApiDeps, "db">,
): Promise<{
  hits: SearchHit[];
  terms: QuestionTerm[];
  firstStage?: FirstStage;
  /** The rules of penalty 1 that kept pages holding the question's key words out of its candidates. */
  leftOut: LeftOutByRule[];
}> {
  const limit = Math.max(1, Math.min(options.limit ?? 5, 100));
  const ownWords = questionWords(options.query);
  if (!ownWords.length) return { hits: [], terms: [], leftOut: [] };
  const words = [...ownWords, ...(options.context ? questionWords(options.context) : [])].slice(0, MAX_QUERY_WORDS);
  // Made by the same code that made the passages' lexemes, so the two agree word for word.
  const asked = lexemesOf(words);
  if (!asked.length) return { hits: [], terms: [], leftOut: [] };
  // The penalty rules are read while the words are looked up: neither waits on the other.
  const [{ lexemeList, stats, correctionOf }, rules] = await Promise.all([
    withTyposCorrected(options.appId, words, asked, deps.db),
    penaltyRulesFor(options.appId, options.triggerPoint ?? DEFAULT_TRIGGER_POINT, deps.db),
  ]);
  const own = new Set(lexemesOf(ownWords).flatMap(correctionOf));
  const writtenAs = wordsByLexeme(words, correctionOf);
  const terms = lexemeList.map((lexeme) => ({
    lexeme,
    idf: inverseFrequency(stats.frequencies.get(lexeme) ?? 0, stats.passages) * (own.has(lexeme) ? 1 : CONTEXT_WEIGHT),
    context: !own.has(lexeme),
    stored: (stats.frequencies.get(lexeme) ?? 0) > 0,
    passages: stats.frequencies.get(lexeme) ?? 0,
    ...writtenAs.get(lexeme),
  }));
  const totalWeight = terms.reduce((sum, t) => sum + t.idf, 0) || 1;

  // Page addresses are joined only when a rule needs them: with no rules, retrieval reads nothing
  // but the chunks.
  const sources = sql`left join urls u on u.id = c.url_id left join files f on f.id = c.file_id`;
  // A penalty of 1 removes a page from retrieval altogether: the first stage does not read it.
  const removing = rules.filter((r) => r.penalty >= 1);
  const kept = removing.length
    ? { sources, filter: sql`and not coalesce(${sql.join(removing.map(ruleMatches), sql` or `)}, false)` }
    : undefined;
  // What those rules left out is read beside the first stage, and only when there are any.
  const [first, leftOut] = await Promise.all([
    firstStage(options.appId, terms, stats, deps.db, { kept }),
    removing.length ? leftOutBy(options.appId, removing, terms, deps.db) : [],
  ]);
  if (!first.passages.length) return { hits: [], terms, firstStage: first, leftOut };

  // The second stage reorders the first stage's passages, and only them: BM25F with the fields
  // boosted, page evidence and the penalties. Each passage's key-word counts are
  // cut out of it again with their positions, in its text and in its fields (setweight, ts_filter:
  // C functions, no sub-select per row), and BM25F is added up here.
  const factor = rules.length
    ? sql.join(
        rules.map((r) => sql`(case when ${ruleMatches(r)} then ${1 - r.penalty}::float8 else 1 end)`),
        sql` * `,
      )
    : sql`1::float8`;
  const matched = rules.length
    ? sql`array_remove(array[${sql.join(
        rules.map((r) => sql`case when ${ruleMatches(r)} then ${r.id}::int end`),
        sql`, `,
      )}], null)`
    : sql`'{}'::int[]`;
  const lexemes = sql`array[${sql.join(
    terms.map((t) => sql`${t.lexeme}`),
    sql`, `,
  )}]::text[]`;
  const fields = fieldsOf(sql`c.tsv`);
  const counted = await rowsAsOne<CandidateRow>(
    deps.db,
    sql`
    select c.id, c.url_id, c.file_id, length(c.tsv) as length, length(${fields}) as field_length,
      ts_filter(setweight(c.tsv, 'A', ${lexemes}), '{a}')::text as every,
      ts_filter(setweight(${fields}, 'A', ${lexemes}), '{a}')::text as field,
      ${factor} as factor, ${matched} as matched
    from chunks c ${rules.length ? sources : sql``}
    where c.id = any(${`{${first.passages.map((p) => p.id).join(",")}}`}::int[])`,
  );
  const scored = scoreCandidates(counted, terms, totalWeight, stats).slice(0, limit);
  if (!scored.length) return { hits: [], terms, firstStage: first, leftOut };
  const shown = await deps.db.execute(sql`
    select ch.id, ch.url_id, ch.file_id, u.url, f.file_name, coalesce(u.title, f.title, '') as title, ch.position, ch.heading_path, ch.text,
      coalesce(u.indexed_at, f.indexed_at) as indexed_at
    from chunks ch
    left join urls u on u.id = ch.url_id
    left join files f on f.id = ch.file_id
    where ch.id = any(${`{${scored.map((s) => s.id).join(",")}}`}::int[])`);
  const passages = new Map(rowsOf<Record<string, unknown>>(shown).map((row) => [Number(row.id), row]));
  const byId = new Map(rules.map((r) => [r.id, r]));
  const hits = scored.flatMap((score) => {
    const row = passages.get(score.id);
    // A passage deleted between the two reads (its page indexed again) is left out.
    if (!row) return [];
    return [
      {
        chunkId: score.id,
        urlId: row.url_id === null ? null : Number(row.url_id),
        fileId: row.file_id === null ? null : Number(row.file_id),
        url: (row.url as string | null) ?? null,
        fileName: (row.file_name as string | null) ?? null,
        title: String(row.title ?? ""),
        position: Number(row.position),
        headingPath: (row.heading_path as string[]) ?? [],
        text: String(row.text),
        indexedAt: row.indexed_at ? new Date(row.indexed_at as string).toISOString() : null,
        baseScore: score.baseScore,
        bm25: score.bm25,
        score: score.baseScore * score.factor,
        relevance: score.bm25 * score.factor,
        pageShare: score.pageShare,
        near: score.near,
        held: score.held,
        penalties: score.matched
          .map((id) => byId.get(Number(id))!)
          .filter(Boolean)
          .map(({ id, type, pattern, penalty }) => ({ id, type, pattern, penalty })),
      },
    ];
  });
  return { hits, terms, firstStage: first, leftOut };
}
