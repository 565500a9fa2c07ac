import { sql, type SQL } from "drizzle-orm";
import { DEFAULT_TRIGGER_POINT } from "@contract";
import { penaltyRulesFor, type PenaltyRule } from "../../controls/finetunings";
import { rowsOf } from "../../db/rows";
import type { ApiDeps } from "../../deps";
import { corpusStats, inverseFrequency } from "./corpus-stats";
import { everyLexemeQuery, fieldsOf, lexemeOf, lexemesOf, wordsOf } from "../words/lexemes";
import { isEnglishWord } from "../words/spelling";
import { nearestStoredWord, vocabularyOf } from "./vocabulary";

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
  /** The rules that lowered this passage. */
  penalties: { id: number; type: PenaltyRule["type"]; pattern: string; penalty: number }[];
}

/** A key word of the question as the index stores it (English stem) and how telling it is. */
export interface QuestionTerm {
  lexeme: string;
  idf: number;
  /** A word of SearchOptions.context only, not of the question itself. */
  context?: boolean;
}

const MAX_QUERY_WORDS = 64;
/** Passages holding every key word that are scored at most. */
const MAX_CANDIDATES = 500;
/** Passages whose title or headings hold every key word that are scored at most. */
const MAX_FIELD_CANDIDATES = 100;
/** Passages scored per rare key word at most (shared out between the words, 50 each at least). */
const MAX_ANY_WORD_CANDIDATES = 500;
/** A key word is rare when at most this many passages, or this share of them, hold it. */
const RARE_PASSAGES = 200;
const RARE_SHARE = 0.02;
/** A key word in at least this share of the passages is in nearly every one: looking it up narrows nothing. */
const EVERYWHERE_SHARE = 0.9;
/** A URL whose path ends in .pdf was indexed as a PDF (the pipeline keeps no content type per URL). */
const PDF_URL = String.raw`\.pdf([?#]|$)`;
/** BM25's usual constants: term-frequency saturation and the weight of the length normalisation. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;
/**
 * BM25F: a key word in the passage's title or headings counts this many times one in its text
 * (the two are summed before BM25 saturates them), so the passages under a heading in the
 * question's words come first, and a page's own title finds it.
 */
const FIELD_BOOST = 3;
/**
 * Misspelt key words of one question looked up among the store's words at most (each look-up
 * scans the stored words of about its length: about a millisecond on 200,000 of them).
 */
const MAX_CORRECTED_WORDS = 3;
/**
 * Page evidence: a passage's BM25 is scaled by the share of the question's key-word weight that its
 * page (or file) holds across all its candidate passages, from 1 − PAGE_EVIDENCE (no share) to 1
 * (every key word). A passage of the page about the question's subject then outranks a passage of
 * another page that happens to hold only the question's rarest word. Chosen on the SQuAD tuning
 * half (decision 018): from 0.6 to 1 the first source was right for 95.0–95.1 % of its questions,
 * at 0.3 for 94.7 %, without it for 94.4 %.
 */
const PAGE_EVIDENCE = 0.8;
/**
 * A context word (SearchOptions.context) weighs this share of what it would weigh in the question
 * itself. Chosen on the SQuAD tuning half's follow-up questions (decision 018): 0.5 and 0.7 tie,
 * 0.3 and 1 do worse.
 */
const CONTEXT_WEIGHT = 0.5;
/**
 * Term proximity: key words standing close together say more than the same words scattered over a
 * passage ("Tuition for the nursing program is …" against a passage naming the nursing program in
 * one sentence and another program's tuition in the next). A passage's BM25 is multiplied by
 * 1 + PROXIMITY_BOOST × the share of the question's key-word weight held by its densest
 * PROXIMITY_WORDS consecutive words (in its text, or in its title and headings), that share scaled
 * by its page's evidence to the power PROXIMITY_PAGE_POWER: the question's words side by side on a
 * page about something else lift little. Chosen on the SQuAD tuning half (decision 018): the
 * passage holding the answer first for 77.5 → 79.6 % of its questions, the answer's first source
 * unchanged (unscaled by the page, it fell 0.5 points).
 */
const PROXIMITY_WORDS = 10;
const PROXIMITY_BOOST = 2;
const PROXIMITY_PAGE_POWER = 4;

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
 * (PAGE_EVIDENCE) and by how close together its key words stand (PROXIMITY_BOOST). The confidence
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
    passage.bm25 *=
      (1 - PAGE_EVIDENCE + PAGE_EVIDENCE * share) *
      (1 + PROXIMITY_BOOST * passage.near * share ** PROXIMITY_PAGE_POWER);
  }
  return scored.sort((a, b) => b.bm25 * b.factor - a.bm25 * a.factor || a.id - b.id);
}

/**
 * A finetuning pattern as an ILIKE pattern: it matches anywhere in the URL or file name, any case;
 * `*` stands for any run of characters. `%`, `_` and `\` match themselves.
 */
export function likePattern(pattern: string) {
  const escaped = pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, "%");
  return `%${escaped}%`;
}

/** When a rule applies to a chunk row (aliases: c chunks, u urls, f files). */
function ruleMatches(rule: PenaltyRule): SQL {
  const like = likePattern(rule.pattern);
  const urlMatches = sql`(u.url ilike ${like} escape '\\')`;
  switch (rule.type) {
    case "url_pattern":
      return sql`(c.url_id is not null and ${urlMatches})`;
    case "html_weightage":
      return sql`(c.url_id is not null and u.url !~* ${PDF_URL} and ${urlMatches})`;
    case "pdf_weightage":
      return sql`((c.file_id is not null and f.file_name ilike ${like} escape '\\') or (c.url_id is not null and u.url ~* ${PDF_URL} and ${urlMatches}))`;
  }
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
 * ("gaurentee" ⇒ "guarantee", "ARPNET" ⇒ "ARPANET"), and the corpus figures for them. Only words
 * that are not English are read so (a real word the store lacks is not a typo); a lexeme with no
 * stored word near enough stays as asked and weighs against the confidence, as a word of
 * something the store does not cover should.
 */
async function withTyposCorrected(appId: number, words: string[], asked: string[], db: ApiDeps["db"]) {
  let stats = await corpusStats(appId, asked, db);
  const unknown = asked.filter((lexeme) => !stats.frequencies.get(lexeme));
  // Nothing to correct (or no way to): the question as asked.
  const asAsked = { lexemeList: asked, stats, correctionOf: (lexeme: string) => lexeme };
  if (!unknown.length) return asAsked;
  const misspelt: string[] = [];
  for (const lexeme of unknown) {
    const written = words.filter((word) => lexemeOf(word) === lexeme);
    if (!(await Promise.all(written.map(isEnglishWord))).some(Boolean)) misspelt.push(lexeme);
  }
  if (!misspelt.length) return asAsked;
  // Without the store's words (a failed read) the question is answered as asked.
  const vocabulary = await vocabularyOf(appId, db).catch(() => null);
  if (!vocabulary) return asAsked;
  const corrected = new Map(
    misspelt.slice(0, MAX_CORRECTED_WORDS).flatMap((lexeme) => {
      const nearest = nearestStoredWord(lexeme, vocabulary);
      return nearest ? [[lexeme, nearest] as const] : [];
    }),
  );
  if (!corrected.size) return asAsked;
  stats = await corpusStats(appId, [...corrected.values()], db);
  // A word read into the list but gone from the store since is no correction.
  const correctionOf = (lexeme: string) => {
    const nearest = corrected.get(lexeme);
    return nearest && stats.frequencies.get(nearest) ? nearest : lexeme;
  };
  return { lexemeList: [...new Set(asked.map(correctionOf))].sort(), stats, correctionOf };
}

/**
 * Full-text retrieval over a client's chunks, ranked by Okapi BM25 and weighted by the client's
 * AI Finetuning penalties: the chat runtime's retrieval. The GIN index on chunks.tsv finds the
 * candidate passages; each is scored by BM25 (every key word weighted by its rarity in the
 * client's store, its count in the passage saturating, long passages normalised), penalties
 * multiply the score down, and the best come first. A penalty of 1 removes a page from retrieval
 * altogether. Penalties act inside the ORDER BY, so a heavily penalised passage never hides a
 * better one beyond the limit.
 */
export async function searchChunks(options: SearchOptions, deps: Pick<ApiDeps, "db">): Promise<SearchHit[]> {
  return (await retrieve(options, deps)).hits;
}

/** searchChunks, plus the question's key words with their weights (what answer composition weighs sentences by). */
export async function retrieve(
  options: SearchOptions,
  deps: Pick<ApiDeps, "db">,
): Promise<{ hits: SearchHit[]; terms: QuestionTerm[] }> {
  const limit = Math.max(1, Math.min(options.limit ?? 5, 100));
  const ownWords = questionWords(options.query);
  if (!ownWords.length) return { hits: [], terms: [] };
  const words = [...ownWords, ...(options.context ? questionWords(options.context) : [])].slice(0, MAX_QUERY_WORDS);
  // Made by the same code that made the passages' lexemes, so the two agree word for word.
  const asked = lexemesOf(words);
  if (!asked.length) return { hits: [], terms: [] };
  const { lexemeList, stats, correctionOf } = await withTyposCorrected(options.appId, words, asked, deps.db);
  const own = new Set(lexemesOf(ownWords).map(correctionOf));
  const terms = lexemeList.map((lexeme) => ({
    lexeme,
    idf: inverseFrequency(stats.frequencies.get(lexeme) ?? 0, stats.passages) * (own.has(lexeme) ? 1 : CONTEXT_WEIGHT),
    context: !own.has(lexeme),
  }));
  const totalWeight = terms.reduce((sum, t) => sum + t.idf, 0) || 1;
  const lexemes = sql`array[${sql.join(
    terms.map((t) => sql`${t.lexeme}`),
    sql`, `,
  )}]::text[]`;
  const everyWord = sql`${everyLexemeQuery(lexemeList)}::tsquery`;
  // A word in nearly every passage (a site's name, in every page's title) narrows nothing, yet the
  // index reads every entry it has to check it: the passages holding every key word are looked up
  // by the others (still scored on all of them), unless nothing else is left.
  const narrowing = terms.filter((t) => (stats.frequencies.get(t.lexeme) ?? 0) < stats.passages * EVERYWHERE_SHARE);
  const everyTellingWord =
    narrowing.length && narrowing.length < terms.length
      ? sql`${everyLexemeQuery(narrowing.map((t) => t.lexeme))}::tsquery`
      : everyWord;

  const rules = await penaltyRulesFor(options.appId, options.triggerPoint ?? DEFAULT_TRIGGER_POINT, deps.db);
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
  // Page addresses are joined for scoring only when a rule needs them, and for the answer only
  // for the rows kept: with no rules, scoring reads nothing but the chunks.
  const sources = rules.length ? sql`left join urls u on u.id = c.url_id left join files f on f.id = c.file_id` : sql``;

  // Scoring reads each candidate's whole tsvector; the index finds candidates for almost nothing.
  // So the candidates are bounded: a question whose words fill thousands of passages costs the
  // same as one that fills a few hundred (see docs/decisions/013-bounded-retrieval.md). They are
  // the passages holding every key word, and those holding any of the question's rarer words (up
  // to its share each): a passage with nothing but common words cannot rank high under BM25, and
  // a word found everywhere cannot crowd out the passages holding the telling ones.
  const rare = terms.filter(
    (t) => (stats.frequencies.get(t.lexeme) ?? 0) <= Math.max(RARE_PASSAGES, stats.passages * RARE_SHARE),
  );
  const pooled = rare.length ? rare : terms;
  // A passage's own counts of the key words: marking the key words with weight A and keeping only
  // those (setweight, ts_filter) leaves a tsvector of a few entries, whose positions are the counts;
  // the same of its field words alone gives their extra counts. The database only cuts these small
  // tsvectors out of each candidate (C functions, no sub-select per row); BM25F is added up here,
  // where it costs about a microsecond a passage instead of about twenty in the executor.
  const fields = fieldsOf(sql`c.tsv`);
  const counts = sql`c.id, c.url_id, c.file_id, length(c.tsv) as length, length(${fields}) as field_length,
      ts_filter(setweight(c.tsv, 'A', ${lexemes}), '{a}')::text as every,
      ts_filter(setweight(${fields}, 'A', ${lexemes}), '{a}')::text as field,
      ${factor} as factor, ${matched} as matched`;
  // Each pool cuts its counts out of the rows its index scan reads, rather than naming ids for a
  // second scan to read again. The passages holding every key word are found once: the other pools
  // leave them out, and a common-word question asks whether there are any. Those under a title or
  // heading holding them all are added: on a large store more passages than the pool takes may hold
  // them all in their text (pages citing that title), and the arbitrary ones the pool took would
  // leave out the page the question names. That pool is sorted before it is cut, so it names its
  // ids first. Two word pools may take one passage: it is scored once.
  const holdingEvery = sql`select ${counts} from chunks c ${sources} where c.app_id = ${options.appId} and c.tsv @@ ${everyTellingWord} limit ${MAX_CANDIDATES}`;
  const titledPool = sql`select ${counts} from chunks c ${sources} where c.id in (
      select titled.id from chunks titled where titled.app_id = ${options.appId} and ${fieldsOf(sql`titled.tsv`)} @@ ${everyWord}
      order by length(${fieldsOf(sql`titled.tsv`)}), titled.id limit ${MAX_FIELD_CANDIDATES})
    and c.id not in (select holding_every.id from holding_every)`;
  const wordPools = sql`select pool.* from unnest(array[${sql.join(
    pooled.map((t) => sql`${t.lexeme}`),
    sql`, `,
  )}]::text[]) as word(word) cross join lateral (
      select ${counts} from chunks c ${sources} where c.app_id = ${options.appId} and c.tsv @@ quote_literal(word.word)::tsquery
      limit ${Math.max(50, Math.floor(MAX_ANY_WORD_CANDIDATES / pooled.length))}::int) pool
    where pool.id not in (select holding_every.id from holding_every)`;
  // With only common words, their pools are read only when no passage holds them all.
  const counted = await deps.db.execute(sql`
    with holding_every as materialized (${holdingEvery})
    select * from holding_every
    union all (${titledPool})
    union all (${wordPools}${rare.length ? sql`` : sql` and not exists (select 1 from holding_every)`})`);
  const scored = scoreCandidates(rowsOf<CandidateRow>(counted), terms, totalWeight, stats).slice(0, limit);
  if (!scored.length) return { hits: [], terms };
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
        penalties: score.matched
          .map((id) => byId.get(Number(id))!)
          .filter(Boolean)
          .map(({ id, type, pattern, penalty }) => ({ id, type, pattern, penalty })),
      },
    ];
  });
  return { hits, terms };
}
