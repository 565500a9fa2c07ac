import type { ThresholdEvidence } from "@contract";

/** The threshold equals the value in force (a saved 0.3 read back is 0.3, not 0.30000000000000004, but sums may not be). */
export const isTodayValue = (threshold: number, current: number) => Math.abs(threshold - current) < 1e-9;

/** A threshold as the table and chart write it: 0.02, 0.1, 0.15 (at most two decimals, none trailing). */
export const thresholdLabel = (threshold: number) => String(Number(threshold.toFixed(2)));

/** How many questions were replayed: test results and rated answers together. */
export const replayedCount = (evidence: ThresholdEvidence) => evidence.test_results + evidence.rated_answers;

/**
 * Where today's value sits among the thresholds tallied, when it is none of them (a value saved
 * as 0.25 has no row of its own); null when one of the rows is today's.
 */
export function todayBetween(evidence: ThresholdEvidence): string | null {
  const thresholds = evidence.points.map((point) => point.threshold);
  if (thresholds.some((threshold) => isTodayValue(threshold, evidence.current))) return null;
  const below = thresholds.filter((threshold) => threshold < evidence.current).at(-1);
  const above = thresholds.find((threshold) => threshold > evidence.current);
  const today = `Today's value, ${evidence.current},`;
  if (below === undefined) return `${today} is below ${thresholdLabel(above!)}.`;
  if (above === undefined) return `${today} is above ${thresholdLabel(below)}.`;
  return `${today} lies between ${thresholdLabel(below)} and ${thresholdLabel(above)}.`;
}

/** "6 test results and 3 rated answers": what the figures were counted over. */
export function replayedWhat(evidence: ThresholdEvidence) {
  const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
  const results = plural(evidence.test_results, "test result", "test results");
  return `${results} and ${plural(evidence.rated_answers, "rated answer", "rated answers")}`;
}

/**
 * The thresholds stand evenly along the axis (they are closer together below 0.1, where what
 * matters lies), and a value between two of them (today's 0.25) stands between their marks in
 * proportion; one outside them stands at the nearer end.
 */
export function evenlySpaced(thresholds: number[], from: number, to: number) {
  const step = (to - from) / Math.max(1, thresholds.length - 1);
  return (threshold: number) => {
    const above = thresholds.findIndex((t) => t >= threshold);
    if (above === -1) return to; // past the last
    if (above === 0) return from; // at or before the first
    const [low, high] = [thresholds[above - 1], thresholds[above]];
    return from + step * (above - 1 + (threshold - low) / (high - low));
  };
}
