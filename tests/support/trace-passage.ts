import type { TracePassage } from "@contract";

/** A passage of an answer's trace, as the API records one: page `rank` of a test site, not used. */
export const tracePassage = (rank: number, fields: Partial<TracePassage> = {}): TracePassage => ({
  url: `https://www.northfield.edu/page-${rank}`,
  file_name: null,
  title: `Page ${rank}`,
  heading_path: [],
  indexed_at: null,
  score: 1 / rank,
  rank,
  penalties: [],
  passed: true,
  used: false,
  listed: false,
  text: "…",
  ...fields,
});
