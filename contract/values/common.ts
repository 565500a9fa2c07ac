/** The common contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/common.ts). */

/** Ids travel as numbers in JSON bodies but arrive as strings in paths and queries. */
export const MAX_ID = 2_147_483_647;
