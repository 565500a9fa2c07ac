/**
 * The embedded database's own thread: PGlite runs here, and the process's main thread, which
 * serves pages and API calls and runs the jobs, sends it statements (api/db/pglite-on-thread.ts).
 * A statement's WebAssembly work then no longer holds up everything else the main thread does, and
 * the second core shares it (docs/decisions/019-fast-pages.md).
 */
import { readFileSync, statSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, types, type Results, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ThreadReply, ThreadRequest, ThreadResults, ThreadStart } from "./pglite-protocol";

const port = parentPort!;

/**
 * One database: PGlite itself, and Drizzle's date parsers once it has opened. A thread opens the
 * database its creator asked for, and after closing it may be asked to open another
 * (api/db/pglite-on-thread.ts keeps a closed database's thread for the next): PGlite then starts
 * again in a thread whose code is already loaded and compiled.
 */
function startDatabase({ dir, from, startParams }: ThreadStart) {
  // pg_trgm backs the URL substring search; PGlite ships it as a loadable extension.
  const pglite = dir
    ? new PGlite(dir, { extensions: { pg_trgm }, startParams })
    : new PGlite({
        extensions: { pg_trgm },
        startParams,
        // Copying a migrated cluster takes a fraction of what initialising a new one and migrating it takes.
        loadDataDir: from ? new DumpBlob(dumpBytes(from)) : undefined,
      });
  return { pglite, parsedDates: parsedDatesOf(pglite) };
}

/**
 * The dumps this thread has started databases from, read once: a test runner's thread opens the
 * same template for file after file, and PGlite only reads the bytes it is given (it copies each
 * file of the dump out of them).
 */
const dumps = new Map<string, { version: string; bytes: ArrayBuffer }>();
function dumpBytes(file: string): ArrayBuffer {
  // A file written again since it was read is read again.
  const { size, mtimeMs } = statSync(file);
  const version = `${size}:${mtimeMs}`;
  const known = dumps.get(file);
  if (known?.version === version) return known.bytes;
  const read = readFileSync(file);
  const bytes = read.buffer.slice(read.byteOffset, read.byteOffset + read.byteLength) as ArrayBuffer;
  dumps.set(file, { version, bytes });
  return bytes;
}

/**
 * A dump as the Blob PGlite loads, answering its bytes as they are. Node's own Blob copies the
 * bytes in when it is made and again, piece by piece, when they are read: for the test template's
 * 30-odd megabytes that was about a fifth of a test database's start (docs/decisions/038). Only
 * `size` and `arrayBuffer()` answer the dump: they are all PGlite reads of `loadDataDir`.
 */
class DumpBlob extends Blob {
  readonly #bytes: ArrayBuffer;
  constructor(bytes: ArrayBuffer) {
    super([]);
    this.#bytes = bytes;
  }
  override get size() {
    return this.#bytes.byteLength;
  }
  override arrayBuffer() {
    return Promise.resolve(this.#bytes);
  }
}

/** The array types of dates and intervals, and of numerics, with their element types. */
const ARRAYS_OF: Record<number, number> = {
  1115: types.TIMESTAMP,
  1185: types.TIMESTAMPTZ,
  1187: types.INTERVAL,
  1182: types.DATE,
  1231: types.NUMERIC,
};
const DATE_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE];
type Parser = (text: string, typeId?: number) => unknown;
/** Drizzle's parsers for those: the text as Postgres wrote it (Drizzle maps it itself). */
const asWritten: Parser = (value) => value;
const RAW_DATES = Object.fromEntries(
  [...DATE_TYPES, ...Object.keys(ARRAYS_OF).map(Number)].map((oid) => [oid, asWritten]),
);

/**
 * Drizzle's statements (every page's reads) are most of the traffic and want dates as written, so
 * those are the instance's parsers; pg-boss's ask for PGlite's own parsing (Date objects), given
 * with the statement. PGlite copies its whole parser table (a few hundred types) into a new object
 * for every statement given parsers of its own: ~110 µs a statement, about as much as running a
 * one-row select, so the common case gives none (docs/decisions/019).
 */
function parsedDatesOf(pglite: PGlite) {
  return pglite.waitReady.then(() => {
    // Read after start: PGlite adds the array types' parsers when it opens the database.
    const { parsers } = pglite as unknown as { parsers: Record<number, Parser | undefined> };
    const parsed: Record<number, Parser> = {};
    for (const oid of DATE_TYPES) parsed[oid] = parsers[oid] ?? asWritten;
    // PGlite's array parsers look their element's parser up at each use, which is now the raw one.
    for (const [array, element] of Object.entries(ARRAYS_OF)) {
      const elementParser = parsed[element] ?? parsers[element] ?? asWritten;
      parsed[Number(array)] = (text) => types.arrayParser(text, elementParser, Number(array));
    }
    Object.assign(parsers, RAW_DATES);
    return parsed;
  });
}

let { pglite, parsedDates } = startDatabase(workerData as ThreadStart);
let closed = false;

/** Open transactions by id: the transaction's handle, and how to end it (commit or roll back). */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
const listeners = new Map<number, () => Promise<void>>();
let nextId = 1;
/** Thrown inside a transaction's callback to have PGlite roll it back. */
const ROLL_BACK = Symbol("roll back");

const resultsOf = (result: Results): ThreadResults => ({
  rows: result.rows,
  fields: result.fields,
  affectedRows: result.affectedRows,
});

/** Enough of an error for the caller's checks (Postgres' `code`, `constraint`, `detail` …) to work. */
function plainError(error: unknown) {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const fields = Object.fromEntries(
    Object.entries(error).filter(([, value]) => ["string", "number", "boolean"].includes(typeof value)),
  );
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
      .then(
        () => ended(null),
        (error: unknown) => (error === ROLL_BACK ? ended(null) : ended(error)),
      )
      .catch(failed);
  });
}

/** How each ended transaction reports back: the `end` request waiting for it. */
const endings = new Map<number, (error: unknown) => void>();

async function answer(request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case "ready":
      await parsedDates;
      return null;
    case "query": {
      const parsers = request.rawDates ? undefined : await parsedDates;
      return resultsOf(
        await target(request.tx).query(request.text, request.params, { rowMode: request.rowMode, parsers }),
      );
    }
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
      listeners.set(
        id,
        await pglite.listen(request.channel, (payload) =>
          port.postMessage({ notify: id, payload } satisfies ThreadReply),
        ),
      );
      return id;
    }
    case "unlisten":
      await listeners.get(request.listener)?.();
      listeners.delete(request.listener);
      return null;
    case "close":
      if (closed) return null;
      await pglite.close();
      transactions.clear();
      listeners.clear();
      endings.clear();
      closed = true;
      return null;
    case "open":
      if (!closed) throw new Error("the thread's database is still open");
      ({ pglite, parsedDates } = startDatabase(request.start));
      closed = false;
      await parsedDates;
      return null;
  }
}

port.on("message", (request: ThreadRequest) => {
  answer(request).then(
    (result) => port.postMessage({ id: request.id, result } satisfies ThreadReply),
    (error: unknown) => port.postMessage({ id: request.id, error: plainError(error) } satisfies ThreadReply),
  );
});
