import { Worker } from "node:worker_threads";
import type { ThreadReply, ThreadRequest, ThreadResults, ThreadStart } from "./pglite-protocol";
import { timedStatement } from "./statement-timing";

type Request = ThreadRequest extends infer R ? (R extends ThreadRequest ? Omit<R, "id"> : never) : never;

export interface QueryOptions {
  rowMode?: "array" | "object";
  /** Drizzle passes parsers that keep dates and intervals as Postgres wrote them; the thread has the same. */
  parsers?: Record<number, unknown>;
}

/** What callers run statements on: the database, or one open transaction of it. */
export interface Statements {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResults>;
  exec(text: string): Promise<ThreadResults[]>;
}

/**
 * The thread of the last database closed, kept for the next one this process opens. A new thread
 * loads and compiles PGlite's code before it can start the database: on a two-core machine a copy
 * of the test suite's template opened in 1.9–2.6 s on a new thread, 1.3–1.4 s on a kept one. Only a
 * process that opens databases one after another gains (the test suite opens one for each file); a
 * server opens one and keeps it. The kept thread does not keep the process alive (decision 038).
 */
let spareThread: Worker | null = null;

/**
 * Takes a thread's listeners of its database off. Only these events': a Worker listens to its own
 * listeners being added and removed, to start its port, and must keep those.
 */
function detach(thread: Worker) {
  for (const event of ["message", "error", "exit"]) thread.removeAllListeners(event);
}

function takeSpareThread() {
  const thread = spareThread;
  spareThread = null;
  if (thread) detach(thread);
  return thread;
}

/** Keeps a thread whose database closed for the next database, or ends it when one is kept already. */
async function keepOrEnd(thread: Worker) {
  detach(thread);
  if (spareThread) {
    await thread.terminate();
    return;
  }
  thread.unref();
  // A kept thread that fails or stops (it should not) is simply not offered again; its error has
  // no database to fail, and an 'error' event nobody listens to would end the process.
  thread.once("exit", () => {
    if (spareThread === thread) spareThread = null;
  });
  thread.on("error", () => {
    if (spareThread === thread) spareThread = null;
  });
  spareThread = thread;
}

/**
 * Embedded PGlite on a thread of its own (api/db/pglite-thread.ts), with the members of PGlite that
 * Drizzle's PGlite driver, pg-boss's PGlite adapter and our start-up use: `query`, `exec`,
 * `transaction`, `listen`, `waitReady` and `close`. Statements keep PGlite's order and locking: the
 * thread runs them on the one PGlite, and a statement outside an open transaction waits for it.
 */
export class PGliteOnThread implements Statements {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private nextId = 1;
  private stopped: Error | null = null;
  readonly waitReady: Promise<void>;

  constructor(start: ThreadStart) {
    const kept = takeSpareThread();
    // The thread's entry sits beside this module, in the sources and in the built server alike.
    this.worker = kept ?? new Worker(new URL("./pglite-thread.mjs", import.meta.url), { workerData: start });
    // Like PGlite in the main thread, an idle database does not keep the process alive (see send).
    this.worker.unref();
    this.worker.on("message", (reply: ThreadReply) => this.settle(reply));
    this.worker.on("error", (error) => this.stop(error));
    this.worker.on("exit", (code) => this.stop(new Error(`the database thread stopped (exit code ${code})`)));
    const opened = kept ? this.send({ op: "open", start }) : Promise.resolve();
    this.waitReady = opened.then(() => this.send({ op: "ready" })).then(() => undefined);
  }

  query(text: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<ThreadResults> {
    return timedStatement(
      () =>
        this.send({
          op: "query",
          text,
          params,
          rowMode: options?.rowMode,
          rawDates: Boolean(options?.parsers),
          tx,
        }) as Promise<ThreadResults>,
    );
  }

  exec(text: string, tx?: number): Promise<ThreadResults[]> {
    return timedStatement(() => this.send({ op: "exec", text, tx }) as Promise<ThreadResults[]>);
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
    const tx = (await this.send({ op: "begin" })) as number;
    const statements: Statements = {
      query: (text, params, options) => this.query(text, params, options, tx),
      exec: (text) => this.exec(text, tx),
    };
    let result: T;
    try {
      result = await work(statements);
    } catch (error) {
      await this.send({ op: "end", tx, commit: false }).catch(() => {});
      throw error;
    }
    await this.send({ op: "end", tx, commit: true });
    return result;
  }

  /** LISTEN on `channel`; answers the function that stops listening. */
  async listen(channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = (await this.send({ op: "listen", channel })) as number;
    this.listeners.set(listener, onNotification);
    return async () => {
      this.listeners.delete(listener);
      await this.send({ op: "unlisten", listener });
    };
  }

  /** The thread the database runs on: a closed database's is kept for the next (spareThread). */
  get threadId() {
    return this.worker.threadId;
  }

  async close() {
    if (this.stopped) return;
    try {
      await this.send({ op: "close" });
    } catch (error) {
      // A thread whose database would not close is not offered to the next one.
      await this.worker.terminate();
      throw error;
    }
    this.stopped = new Error("the database is closed");
    await keepOrEnd(this.worker);
  }

  private send(request: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    // While a statement is out, the thread keeps the process alive: its answer is still to come.
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private settle(reply: ThreadReply) {
    if ("notify" in reply) {
      this.listeners.get(reply.notify)?.(reply.payload);
      return;
    }
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if ("error" in reply) waiting.reject(Object.assign(new Error(reply.error.message), reply.error));
    else waiting.resolve(reply.result);
  }

  private stop(error: Error) {
    this.stopped ??= error;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}
