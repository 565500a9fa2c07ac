/** The jobs contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/jobs.ts). */

export const JOB_STATES = ["created", "retry", "active", "completed", "cancelled", "failed"] as const;

/** The state named by a query parameter, or undefined when it names none. */
export const jobStateOf = (value: string | null): (typeof JOB_STATES)[number] | undefined =>
  JOB_STATES.find((state) => state === value);
