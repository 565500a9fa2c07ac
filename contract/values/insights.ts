/** The insights contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/insights.ts). */

export const INSIGHT_ENVIRONMENTS = ["all", "prod", "stage"] as const;

export const INSIGHT_ENVIRONMENT_LABELS: Record<(typeof INSIGHT_ENVIRONMENTS)[number], string> = {
  all: "All",
  prod: "Production",
  stage: "Sandbox",
};

/** The longest range one request may cover. */
export const MAX_INSIGHT_DAYS = 366;

export const DEFAULT_INSIGHT_DAYS = 30;

export const INSIGHT_CHARTS = [
  "conversations",
  "outcomes",
  "top_questions",
  "unanswered_questions",
  "leads",
  "sources",
  "unhelpful_answers",
] as const;

export type InsightChart = (typeof INSIGHT_CHARTS)[number];
