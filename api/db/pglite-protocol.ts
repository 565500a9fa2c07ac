/** What the main thread and the database's thread say to each other (api/db/pglite-thread.ts). */

export interface ThreadStart {
  /** A folder to keep the database in; in memory when absent. */
  dir?: string;
  /**
   * An in-memory database's starting contents: a file `PGlite.dumpDataDir` wrote from a migrated
   * database (the test suite's template), instead of a new cluster PGlite would initialise itself.
   */
  from?: string;
  startParams: string[];
}

export type ThreadRequest = { id: number } & (
  | { op: "ready" }
  /** `rawDates`: dates and intervals as Postgres wrote them, as Drizzle's PGlite driver asks. */
  | { op: "query"; text: string; params?: unknown[]; rowMode?: "array" | "object"; rawDates: boolean; tx?: number }
  | { op: "exec"; text: string; tx?: number }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "listen"; channel: string }
  | { op: "unlisten"; listener: number }
  | { op: "close" }
  /** Another database, in a thread whose database was closed (the thread is kept for the next). */
  | { op: "open"; start: ThreadStart }
);

export interface ThreadResults {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export type ThreadReply =
  | { id: number; result: unknown }
  | { id: number; error: { name: string; message: string } & Record<string, unknown> }
  | { notify: number; payload: string };
