/**
 * The embedded database's own thread: PGlite runs here, and the process's main thread, which
 * serves pages and API calls and runs the jobs, sends it statements (api/db/pglite-on-thread.ts).
 * A statement's WebAssembly work then no longer holds up everything else the main thread does, and
 * the second core shares it (docs/decisions/019-fast-pages.md).
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, types, type Results, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ThreadReply, ThreadRequest, ThreadResults, ThreadStart } from "./pglite-protocol";

const port = parentPort!;
const { dir, startParams } = workerData as ThreadStart;
// pg_trgm backs the URL substring search; PGlite ships it as a loadable extension.
const pglite = dir ? new PGlite(dir, { extensions: { pg_trgm }, startParams }) : new PGlite({ extensions: { pg_trgm }, startParams });

/** Drizzle's parsers for dates and intervals: the text as Postgres wrote it (Drizzle maps it itself). */
const asWritten = (value: string) => value;
const RAW_DATES = Object.fromEntries([types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, asWritten]));

/** Open transactions by id: the transaction's handle, and how to end it (commit or roll back). */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
const listeners = new Map<number, () => Promise<void>>();
let nextId = 1;
/** Thrown inside a transaction's callback to have PGlite roll it back. */
const ROLL_BACK = Symbol("roll back");

const resultsOf = (result: Results): ThreadResults => ({ rows: result.rows, fields: result.fields, affectedRows: result.affectedRows });

/** Enough of an error for the caller's checks (Postgres' `code`, `constraint`, `detail` …) to work. */
function plainError(error: unknown) {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const fields = Object.fromEntries(Object.entries(error).filter(([, value]) => ["string", "number", "boolean"].includes(typeof value)));
  return { ...fields, name: error.name, message: error.message };
}

function target(tx: number | undefined) {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  if (!open) throw new Error("the transaction has ended");
  return open.tx;
}

/** Opens a transaction; answers its id once BEGIN ran, and `ended` once it committed or rolled back. */
function begin(ended: (error: unknown) => void): Promise<number> {
  return new Promise<number>((opened, failed) => {
    pglite
      .transaction(async (tx) => {
        const id = nextId++;
        const commit = await new Promise<boolean>((end) => {
          transactions.set(id, { tx, end });
          opened(id);
        });
        transactions.delete(id);
        if (!commit) throw ROLL_BACK;
      })
      .then(() => ended(null), (error: unknown) => (error === ROLL_BACK ? ended(null) : ended(error)))
      .catch(failed);
  });
}

/** How each ended transaction reports back: the `end` request waiting for it. */
const endings = new Map<number, (error: unknown) => void>();

async function answer(request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case "ready":
      await pglite.waitReady;
      return null;
    case "query":
      return resultsOf(await target(request.tx).query(request.text, request.params, { rowMode: request.rowMode, parsers: request.rawDates ? RAW_DATES : undefined }));
    case "exec":
      return (await target(request.tx).exec(request.text)).map(resultsOf);
    case "begin": {
      let id = 0;
      id = await begin((error) => {
        const report = endings.get(id);
        endings.delete(id);
        report?.(error);
      });
      return id;
    }
    case "end": {
      const open = transactions.get(request.tx);
      if (!open) throw new Error("the transaction has ended");
      const ended = new Promise<unknown>((resolve) => endings.set(request.tx, resolve));
      open.end(request.commit);
      const error = await ended;
      if (error) throw error;
      return null;
    }
    case "listen": {
      const id = nextId++;
      listeners.set(id, await pglite.listen(request.channel, (payload) => port.postMessage({ notify: id, payload } satisfies ThreadReply)));
      return id;
    }
    case "unlisten":
      await listeners.get(request.listener)?.();
      listeners.delete(request.listener);
      return null;
    case "close":
      await pglite.close();
      return null;
  }
}

port.on("message", (request: ThreadRequest) => {
  answer(request).then(
    (result) => port.postMessage({ id: request.id, result } satisfies ThreadReply),
    (error: unknown) => port.postMessage({ id: request.id, error: plainError(error) } satisfies ThreadReply),
  );
});
