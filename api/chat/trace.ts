import {
  TRACE_FILE_NAME_CHARS,
  TRACE_KEY_WORD_CHARS,
  TRACE_LEFT_OUT_CHARS,
  TRACE_MAX_FILES_NOT_TAGGED,
  TRACE_MAX_KEY_WORDS,
  TRACE_MAX_LEFT_OUT_RULES,
  TRACE_MAX_PASSAGES,
  TRACE_PASSAGE_CHARS,
  type AnswerTrace,
  type FallbackReason,
  cutText,
} from "@contract";
import type { LeftOutByRule, QuestionTerm, SearchHit } from "../knowledge/index/search";
import { QUOTABLE_SHARE } from "./answer-confidence";

/** A control that shaped an answer, as the trace names it. */
export type TracedControl = AnswerTrace["controls"][number];

const rounded = (score: number) => Math.round(score * 1000) / 1000;

/**
 * The hits a trace keeps: retrieval's first TRACE_MAX_PASSAGES, except that a passage the answer
 * draws on or lists as a source, ranked beyond them (another passage of a quotable one's page can
 * be), takes the place of the last ones: what the answer used is always in its trace. Each with
 * its rank in retrieval's order.
 */
function keptHits(hits: SearchHit[], answered: Set<number>) {
  const ranked = hits.map((hit, index) => ({ hit, rank: index + 1 }));
  const beyond = ranked.slice(TRACE_MAX_PASSAGES).filter(({ hit }) => answered.has(hit.chunkId));
  return [...ranked.slice(0, TRACE_MAX_PASSAGES - beyond.length), ...beyond.slice(0, TRACE_MAX_PASSAGES)];
}

/** The files left out as not tagged for the environment, as a trace names them: a few, each name cut short. */
export const filesNotTaggedOf = (names: string[]) =>
  names.slice(0, TRACE_MAX_FILES_NOT_TAGGED).map((name) => cutText(name, TRACE_FILE_NAME_CHARS));

/** The rules that left pages out, as a trace keeps them: a few, each with a few pages, cut short. */
const leftOutOf = (rules: LeftOutByRule[]): NonNullable<AnswerTrace["left_out"]> => ({
  rules: rules.slice(0, TRACE_MAX_LEFT_OUT_RULES).map((rule) => ({
    type: rule.type,
    pattern: cutText(rule.pattern, TRACE_LEFT_OUT_CHARS),
    penalty: rule.penalty,
    pages: rule.pages.map((page) => cutText(page, TRACE_LEFT_OUT_CHARS)),
    more_pages: rule.morePages,
  })),
  more_rules: Math.max(0, rules.length - TRACE_MAX_LEFT_OUT_RULES),
});

/**
 * The question's key words as a trace names them, weightiest first: each word's share of the
 * question's weight is what a passage holding it adds to its score (before penalties), and a word
 * no passage holds is what the store lacks. And which of them a passage holds, for its `holds`.
 */
function keyWordsOf(terms: QuestionTerm[]) {
  const total = terms.reduce((sum, term) => sum + term.idf, 0) || 1;
  const weightiest = [...terms].sort((a, b) => b.idf - a.idf).slice(0, TRACE_MAX_KEY_WORDS);
  const wordOf = (term: QuestionTerm) => cutText(term.word ?? term.lexeme, TRACE_KEY_WORD_CHARS);
  const keyWords = weightiest.map((term) => ({
    word: wordOf(term),
    weight: rounded(term.idf / total),
    passages: term.passages ?? 0,
    ...(term.context ? { context: true } : {}),
    ...(term.corrected ? { corrected: true } : {}),
  }));
  /** The key words among these lexemes (a passage's `held`), weightiest first as the key words stand. */
  const wordsHeld = (held: string[]) => {
    const lexemes = new Set(held);
    return weightiest.filter((term) => lexemes.has(term.lexeme)).map(wordOf);
  };
  return { keyWords, wordsHeld };
}

/**
 * What an answer's trace records (docs/decisions/028): the passages retrieval ranked (at most
 * TRACE_MAX_PASSAGES, each cut to TRACE_PASSAGE_CHARS, so a trace stays small whatever was found),
 * the threshold in force and the answer's chance of being right it was compared with, which
 * passages held enough of the question to be quoted, which the answer's text was drawn from and
 * which its sources list, the controls that fired (the finetuning rules that left pages out
 * among them), the files left out as not tagged for the environment, and why a fallback was one. Built from what the responder already
 * holds: recording it reads nothing more.
 */
export function traceOf(input: {
  hits: SearchHit[];
  threshold: number;
  /** The chance that an answer from these hits is right, which the quality check compared with the threshold. */
  confidence: number;
  /** The passages the answer's text was drawn from: the one it quotes, or those a model cited. */
  drawnFrom: SearchHit[];
  /** The passages whose pages the answer lists as its sources (the widget shows them). */
  listed: SearchHit[];
  controls: TracedControl[];
  model: boolean;
  /** Why the answer is the fallback message, when it is. */
  fallbackReason?: FallbackReason;
  /** The rules of penalty 1 that kept pages holding the question's key words out of retrieval. */
  leftOut?: LeftOutByRule[];
  /** The question's key words as retrieval weighed them (none when nothing was searched). */
  terms?: QuestionTerm[];
  /** The uploaded files whose passages retrieval found and left out, as not tagged for the environment (names). */
  filesNotTagged?: string[];
}): AnswerTrace {
  const drawnFrom = new Set(input.drawnFrom.map((hit) => hit.chunkId));
  const listed = new Set(input.listed.map((hit) => hit.chunkId));
  const { keyWords, wordsHeld } = keyWordsOf(input.terms ?? []);
  return {
    threshold: input.threshold,
    confidence: rounded(input.confidence),
    top_score: rounded(input.hits.reduce((best, hit) => Math.max(best, hit.score), 0)),
    passages: keptHits(input.hits, new Set([...drawnFrom, ...listed])).map(({ hit, rank }) => ({
      url: hit.url,
      file_name: hit.fileName,
      ...(hit.fileId !== null ? { file_id: hit.fileId } : {}),
      title: hit.title,
      heading_path: hit.headingPath.slice(0, 6).map((heading) => cutText(heading, 200)),
      indexed_at: hit.indexedAt,
      score: rounded(hit.score),
      rank,
      penalties: hit.penalties.map(({ type, pattern, penalty }) => ({ type, pattern, penalty })),
      passed: hit.score > 0 && hit.score >= QUOTABLE_SHARE,
      used: drawnFrom.has(hit.chunkId),
      listed: listed.has(hit.chunkId),
      text: cutText(hit.text, TRACE_PASSAGE_CHARS),
      ...(input.terms?.length ? { holds: wordsHeld(hit.held) } : {}),
    })),
    ...(keyWords.length ? { key_words: keyWords } : {}),
    controls: input.controls,
    model: input.model,
    ...(input.fallbackReason ? { fallback_reason: input.fallbackReason } : {}),
    ...(input.leftOut?.length ? { left_out: leftOutOf(input.leftOut) } : {}),
    ...(input.filesNotTagged?.length ? { files_not_tagged: filesNotTaggedOf(input.filesNotTagged) } : {}),
  };
}

/**
 * The question's own key words no passage held, weightiest first: often what the missing page is
 * about. Of one question of several when `part` (1, 2, …) says which; else of the whole message,
 * each word once.
 */
export function lackedWordsOf(trace: AnswerTrace, part?: number) {
  const lacked = (trace.key_words ?? [])
    .filter((key) => !key.passages && !key.context && (part === undefined || key.part === part))
    .map((key) => key.word);
  return [...new Set(lacked)];
}
