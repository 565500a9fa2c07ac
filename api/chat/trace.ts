import { TRACE_MAX_PASSAGES, TRACE_PASSAGE_CHARS, type AnswerTrace } from "@contract";
import type { SearchHit } from "../knowledge/index/search";
import { QUOTABLE_SHARE } from "./answer-confidence";

/** A control that shaped an answer, as the trace names it. */
export type TracedControl = AnswerTrace["controls"][number];

const rounded = (score: number) => Math.round(score * 1000) / 1000;

/**
 * What an answer's trace records (docs/decisions/028): the passages retrieval ranked (at most
 * TRACE_MAX_PASSAGES, each cut to TRACE_PASSAGE_CHARS, so a trace stays small whatever was found),
 * the threshold in force and the answer's chance of being right it was compared with, which
 * passages held enough of the question to be quoted, which the answer used, and the controls
 * that fired. Built from what the responder already holds: recording it reads nothing more.
 */
export function traceOf(input: {
  hits: SearchHit[];
  threshold: number;
  /** The chance that an answer from these hits is right, which the quality check compared with the threshold. */
  confidence: number;
  used: SearchHit[];
  controls: TracedControl[];
  model: boolean;
}): AnswerTrace {
  const used = new Set(input.used.map((hit) => hit.chunkId));
  return {
    threshold: input.threshold,
    confidence: rounded(input.confidence),
    top_score: rounded(input.hits.reduce((best, hit) => Math.max(best, hit.score), 0)),
    passages: input.hits.slice(0, TRACE_MAX_PASSAGES).map((hit, index) => ({
      url: hit.url,
      file_name: hit.fileName,
      title: hit.title,
      heading_path: hit.headingPath.slice(0, 6).map((heading) => heading.slice(0, 200)),
      indexed_at: hit.indexedAt,
      score: rounded(hit.score),
      rank: index + 1,
      penalties: hit.penalties.map(({ type, pattern, penalty }) => ({ type, pattern, penalty })),
      passed: hit.score > 0 && hit.score >= QUOTABLE_SHARE,
      used: used.has(hit.chunkId),
      text: hit.text.slice(0, TRACE_PASSAGE_CHARS),
    })),
    controls: input.controls,
    model: input.model,
  };
}
