import type { Database } from "./client";

/**
 * A query built once per database and then run with new values (drizzle's `.prepare()` with
 * `sql.placeholder`s). For the reads every authenticated request makes (the caller, the client
 * list): building a select through drizzle's query builder allocated ~50 KB and took a few
 * hundred microseconds each time (docs/decisions/019-fast-pages.md). On PostgreSQL the name also
 * makes each connection parse and plan the statement once.
 */
export function preparedPerDatabase<Query>(build: (db: Database) => Query): (db: Database) => Query {
  const byDatabase = new WeakMap<Database, Query>();
  return (db) => {
    let query = byDatabase.get(db);
    if (!query) byDatabase.set(db, (query = build(db)));
    return query;
  };
}
