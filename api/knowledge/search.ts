import { sql, type SQL } from "drizzle-orm";
import { DEFAULT_TRIGGER_POINT } from "../../contract";
import { penaltyRulesFor, type PenaltyRule } from "../controls/finetunings";
import type { ApiDeps } from "../deps";

export interface SearchOptions {
  appId: number;
  /** The visitor's question, as typed. */
  query: string;
  /** Whose finetuning penalties apply: Default's, plus (and over) this trigger point's own. */
  triggerPoint?: string;
  limit?: number;
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
  /** Share of the question's key words (stemmed, stop words left out) the passage contains, 0–1. */
  baseScore: number;
  /** Postgres' cover-density rank, 0–1: orders passages with the same score (closer, more frequent terms first). */
  rank: number;
  /** baseScore × (1 − penalty) for every finetuning rule matching the passage's page. */
  score: number;
  /** The rules that lowered this passage. */
  penalties: { id: number; type: PenaltyRule["type"]; pattern: string; penalty: number }[];
}

const MAX_QUERY_WORDS = 64;
/** Passages holding every key word that are scored at most. */
const MAX_CANDIDATES = 1_000;
/** Passages scored at most when no passage holds every key word, shared out between the words (50 each at least). */
const MAX_ANY_WORD_CANDIDATES = 1_000;
/** A URL whose path ends in .pdf was indexed as a PDF (the pipeline keeps no content type per URL). */
const PDF_URL = String.raw`\.pdf([?#]|$)`;

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
 * Full-text retrieval over a client's chunks, weighted by its AI Finetuning penalties: the chat
 * runtime's retrieval. The question's words are OR-ed (a question rarely repeats a passage word
 * for word), the GIN index on chunks.tsv finds the passages holding any of them, each gets a
 * score, penalties multiply it down, and the best come first. A penalty of 1 removes a page from
 * retrieval altogether. Penalties act inside the ORDER BY, so a heavily penalised passage never
 * hides a better one beyond the limit.
 */
export async function searchChunks(options: SearchOptions, deps: Pick<ApiDeps, "db">): Promise<SearchHit[]> {
  const limit = Math.max(1, Math.min(options.limit ?? 5, 100));
  const words = (options.query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w !== "or").slice(0, MAX_QUERY_WORDS);
  if (!words.length) return [];
  // websearch_to_tsquery never fails on user text; " or " between the words makes it a disjunction.
  const anyWord = sql`websearch_to_tsquery('english', ${words.join(" or ")})`;
  const everyWord = sql`websearch_to_tsquery('english', ${words.join(" ")})`;
  // The same words as stemmed lexemes, stop words dropped: what "share of key words" counts.
  const lexemes = sql`tsvector_to_array(to_tsvector('english', ${words.join(" ")}))`;

  const rules = await penaltyRulesFor(options.appId, options.triggerPoint ?? DEFAULT_TRIGGER_POINT, deps.db);
  const factor = rules.length
    ? sql.join(rules.map((r) => sql`(case when ${ruleMatches(r)} then ${1 - r.penalty}::float8 else 1 end)`), sql` * `)
    : sql`1::float8`;
  const matched = rules.length
    ? sql`array_remove(array[${sql.join(rules.map((r) => sql`case when ${ruleMatches(r)} then ${r.id}::int end`), sql`, `)}], null)`
    : sql`'{}'::int[]`;

  // Page addresses are joined for scoring only when a rule needs them, and for the answer only
  // for the rows kept: with no rules, scoring reads nothing but the chunks.
  const sources = rules.length ? sql`left join urls u on u.id = c.url_id left join files f on f.id = c.file_id` : sql``;
  /** Scores the candidate chunks (a subquery of ids) and answers the best `limit` of them. */
  const score = (candidates: SQL, tsquery: SQL) => deps.db.execute(sql`
    select top.id, top.url_id, top.file_id, u.url, f.file_name, coalesce(u.title, f.title, '') as title, c.position, c.heading_path, c.text,
      top.base_score, top.rank, top.matched, top.score, cardinality(${lexemes}) as key_words
    from (
      select id, url_id, file_id, base_score, rank, matched, base_score * factor as score
      from (
        select c.id, c.url_id, c.file_id,
          (length(c.tsv) - length(ts_delete(c.tsv, ${lexemes})))::float8 / greatest(cardinality(${lexemes}), 1) as base_score,
          ts_rank_cd(c.tsv, ${tsquery}, 32)::float8 as rank,
          ${factor} as factor,
          ${matched} as matched
        from chunks c ${sources}
        where c.id in (${candidates})
      ) scored
      where base_score * factor > 0
      order by score desc, rank desc, id
      limit ${limit}
    ) top
    join chunks c on c.id = top.id
    left join urls u on u.id = top.url_id
    left join files f on f.id = top.file_id
    order by top.score desc, top.rank desc, top.id`).then((result) => (result as unknown as { rows: Record<string, unknown>[] }).rows);
  // Scoring reads each candidate's whole tsvector; the index finds candidates for almost nothing.
  // So the candidates are bounded: a question whose words fill thousands of passages costs the
  // same as one that fills a few hundred (see docs/decisions/013-bounded-retrieval.md).
  const everyWordCandidates = sql`select id from chunks where app_id = ${options.appId} and tsv @@ ${everyWord} limit ${MAX_CANDIDATES}`;
  // Per key word, up to its share of passages: a word found everywhere cannot crowd out the
  // passages holding the rarer, telling words of the question.
  const anyWordCandidates = sql`select distinct pool.id from unnest(${lexemes}) as word cross join lateral (
      select id from chunks where app_id = ${options.appId} and tsv @@ quote_literal(word)::tsquery
      limit greatest(50, ${MAX_ANY_WORD_CANDIDATES} / greatest(cardinality(${lexemes}), 1))) pool`;
  // Passages holding every word come first: when enough of them score above anything a passage
  // missing a word could reach ((n - 1) / n before penalties), the wider OR search cannot change
  // the answer, and the AND search reads far fewer rows when the question uses common words.
  let rows = words.length > 1 ? await score(everyWordCandidates, everyWord) : [];
  const keyWords = Number(rows[0]?.key_words ?? 0);
  if (rows.length < limit || Number(rows[rows.length - 1].score) <= (keyWords - 1) / Math.max(keyWords, 1)) rows = await score(anyWordCandidates, anyWord);
  const byId = new Map(rules.map((r) => [r.id, r]));
  return rows.map((row) => ({
    chunkId: Number(row.id),
    urlId: row.url_id === null ? null : Number(row.url_id),
    fileId: row.file_id === null ? null : Number(row.file_id),
    url: (row.url as string | null) ?? null,
    fileName: (row.file_name as string | null) ?? null,
    title: String(row.title ?? ""),
    position: Number(row.position),
    headingPath: (row.heading_path as string[]) ?? [],
    text: String(row.text),
    baseScore: Number(row.base_score),
    rank: Number(row.rank),
    score: Number(row.score),
    penalties: ((row.matched as number[] | null) ?? []).map((id) => byId.get(Number(id))!).filter(Boolean)
      .map(({ id, type, pattern, penalty }) => ({ id, type, pattern, penalty })),
  }));
}
