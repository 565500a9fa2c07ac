/** The testing contract's plain values: no zod, so browser code can import them (schemas: contract/testing.ts). */
export const TEST_ENVIRONMENTS = ["stage", "prod"] as const;
export const TEST_RUN_STATUSES = ["queued", "running", "done", "failed"] as const;
export const TEST_QUESTION_SORTS = ["question", "expect_outcome", "updated_at"] as const;
/** The most questions one import may add (a CSV of them, all added or none). */
export const TEST_QUESTIONS_IMPORT_MAX = 500;
