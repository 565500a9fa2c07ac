/**
 * How much of a reference text an extraction kept, the way article-extraction benchmarks count it:
 * tokens (or 4-token shingles) as multisets, so text repeated or left out both count.
 */
export interface Overlap {
  precision: number;
  recall: number;
  f1: number;
}

const tokensOf = (text: string) => text.match(/[\p{L}\p{N}_]+/gu) ?? [];

function grams(text: string, n: number) {
  const tokens = tokensOf(text);
  if (n === 1) return tokens;
  const out: string[] = [];
  for (let i = 0; i + n <= tokens.length; i++) out.push(tokens.slice(i, i + n).join(" "));
  return out;
}

/** Precision and recall of `got` against `want` over n-grams of tokens (n = 1: words). */
export function overlap(got: string, want: string, n = 1): Overlap {
  const counts = new Map<string, number>();
  const wanted = grams(want, n);
  for (const g of wanted) counts.set(g, (counts.get(g) ?? 0) + 1);
  const found = grams(got, n);
  let shared = 0;
  for (const g of found) {
    const left = counts.get(g) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(g, left - 1);
    }
  }
  const precision = found.length ? shared / found.length : wanted.length ? 0 : 1;
  const recall = wanted.length ? shared / wanted.length : 1;
  return { precision, recall, f1: f1Of(precision, recall) };
}

export const f1Of = (precision: number, recall: number) =>
  precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;

/** Mean precision and recall over pages, and the F1 of those means. */
export function meanOverlap(pages: Overlap[]): Overlap {
  const mean = (pick: (o: Overlap) => number) => pages.reduce((sum, o) => sum + pick(o), 0) / Math.max(1, pages.length);
  const precision = mean((o) => o.precision);
  const recall = mean((o) => o.recall);
  return { precision, recall, f1: f1Of(precision, recall) };
}
