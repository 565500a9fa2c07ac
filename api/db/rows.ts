/**
 * The rows of a raw `db.execute(sql…)` result, typed as the statement's columns. Both drivers
 * (node-postgres and PGlite) answer an object with `rows`; Drizzle leaves its type open.
 */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
