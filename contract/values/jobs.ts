/** The jobs contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/jobs.ts). */

export const JOB_STATES = ["created", "retry", "active", "completed", "cancelled", "failed"] as const;
