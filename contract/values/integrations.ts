/** The integrations contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/integrations.ts). */

export const INTEGRATION_GROUPS = ["CRM", "LMS"] as const;

export const INTEGRATION_ENVIRONMENTS = ["staging", "production"] as const;

export const DEFAULT_INTEGRATION_ENVIRONMENT = "staging";

/** What a secret comes back as: never the value, only that one is stored and how it ends. */
export const SECRET_MASK_PREFIX = "••••••";

/** The card groups' headings. */
export const INTEGRATION_GROUP_TITLES: Record<(typeof INTEGRATION_GROUPS)[number], string> = {
  CRM: "Agent System Integration",
  LMS: "Learning Management System",
};
