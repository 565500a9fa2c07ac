/** The common contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/common.ts). */

/** Ids travel as numbers in JSON bodies but arrive as strings in paths and queries. */
export const MAX_ID = 2_147_483_647;

/** The furthest page a list call serves: past it no table has rows, and OFFSET stays far from bigint's end. */
export const MAX_PAGE = 100_000;

/** Values as a message lists the ones allowed: "10, 25, 50 or 100". */
export const oneOf = (values: readonly (string | number)[]) =>
  new Intl.ListFormat("en-GB", { type: "disjunction" }).format(values.map(String));
