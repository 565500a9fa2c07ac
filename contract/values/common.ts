/** The common contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/common.ts). */

/** The penalty the finetuning tables suggest, and the one a "lower this page" correction applies. */
export const PENALTY_EXAMPLE = 0.5;

/** Ids travel as numbers in JSON bodies but arrive as strings in paths and queries. */
export const MAX_ID = 2_147_483_647;

/** The furthest page a list call serves: past it no table has rows, and OFFSET stays far from bigint's end. */
export const MAX_PAGE = 100_000;

/**
 * Page sizes a list call of the API accepts (conversations, user profiles). The console's tables
 * offer spec section 9's 10, 20, 50 and 100; 25 stays for callers written against the first
 * version of these calls, and 1000 is for exports.
 */
export const LIST_PAGE_SIZES = [10, 20, 25, 50, 100, 1000] as const;

/** Values as a message lists the ones allowed: "10, 25, 50 or 100". */
export const oneOf = (values: readonly (string | number)[]) =>
  new Intl.ListFormat("en-GB", { type: "disjunction" }).format(values.map(String));

/** A count with its noun in the right number: 1 ⇒ '1 chunk', 3 ⇒ '3 chunks', 1200 ⇒ '1,200 pages'. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? singular : plural}`;
}

/** The longest web address the API takes. */
export const MAX_URL_LENGTH = 2000;
