import {
  EVIDENCE_THRESHOLDS,
  UNGATED_OUTCOMES,
  type AnswerRating,
  type ChatOutcome,
  type ThresholdEvidence,
} from "@contract";

/*
 * The Quality Check's evidence (docs/decisions/029): what each Minimum Retrieval Confidence would
 * have done to questions already asked, replayed on the chance of a right answer the quality check
 * recorded when each was asked (0 when no passage held enough of the question to quote). The rule,
 * the same one the quality gate applies (api/controls/runtime.ts qualityGate):
 *
 *   answered(t) = confidence > 0 and confidence ≥ t; the fallback otherwise.
 *
 * What "passed" means at t:
 * - a test question that expects the fallback passes iff it is not answered at t;
 * - one that expects an answer (answered, disclaimed or no outcome named) passes iff it is answered
 *   at t and its checks passed when it ran. One that ran as a fallback had no answer to check:
 *   its content is unknown and it counts as not passed at every t;
 * - one that expects the canned response passes at no t: no threshold gives a canned response;
 * - a visitor's thumbs up passes iff answered at t, a thumbs down iff not answered: a fallback is
 *   better than an answer the visitor found wrong.
 *
 * Canned (no-go) outcomes are decided before retrieval, whatever the threshold: they are left out.
 */

/** One replayed question: its recorded chance of a right answer and whether its expectation holds either way. */
export interface ReplaySample {
  confidence: number;
  /** Its expectation is met if the threshold lets it be answered … */
  passesIfAnswered: boolean;
  /** … or if the threshold gives it the fallback. */
  passesIfFallback: boolean;
}

/** A test result as the replay reads it: the question's expectation now, and how it ran. */
export interface ReplayedTestResult {
  confidence: number;
  expectOutcome: ChatOutcome | null;
  ranAs: ChatOutcome;
  /** The run's verdict (outcome, source and text checks together). */
  passed: boolean;
}

/** Whether an outcome is an answer from the knowledge store, which the threshold allows or refuses. */
const isAnswer = (outcome: ChatOutcome | null) => outcome === "answered" || outcome === "disclaimed";

/** A test result as a sample; null for a canned one or small talk, which no threshold changes. */
export function testResultSample(result: ReplayedTestResult): ReplaySample | null {
  if (UNGATED_OUTCOMES.includes(result.ranAs)) return null;
  switch (result.expectOutcome) {
    case "fallback":
      return { confidence: result.confidence, passesIfAnswered: false, passesIfFallback: true };
    case "canned":
      return { confidence: result.confidence, passesIfAnswered: false, passesIfFallback: false };
    default:
      // It ran as an answer: the run's verdict says whether its source, text and outcome were right
      // (an answer expecting a disclaimer it did not get fails at any threshold, as it should).
      return {
        confidence: result.confidence,
        passesIfAnswered: isAnswer(result.ranAs) && result.passed,
        passesIfFallback: false,
      };
  }
}

/** A rated answer as a sample; null for a canned one or small talk. */
export function ratedAnswerSample(answer: {
  confidence: number;
  rating: AnswerRating;
  outcome: ChatOutcome;
}): ReplaySample | null {
  if (UNGATED_OUTCOMES.includes(answer.outcome)) return null;
  const up = answer.rating === "up";
  return { confidence: answer.confidence, passesIfAnswered: up, passesIfFallback: !up };
}

/** The quality gate's decision at threshold t, on the score recorded. */
export const answeredAt = (confidence: number, threshold: number) => confidence > 0 && confidence >= threshold;

/** Answered, fallback and passed at each threshold of EVIDENCE_THRESHOLDS. */
export function thresholdPoints(samples: readonly ReplaySample[]): ThresholdEvidence["points"] {
  return EVIDENCE_THRESHOLDS.map((threshold) => {
    let answered = 0;
    let passed = 0;
    for (const sample of samples) {
      const answers = answeredAt(sample.confidence, threshold);
      if (answers) answered += 1;
      if (answers ? sample.passesIfAnswered : sample.passesIfFallback) passed += 1;
    }
    return { threshold, answered, fallback: samples.length - answered, passed };
  });
}
