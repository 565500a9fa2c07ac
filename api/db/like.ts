/**
 * An ILIKE pattern matching `term` anywhere, its `%`, `_` and `\` taken literally (a search for
 * "100%" finds "100%", not every address that starts with 100).
 */
export const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
