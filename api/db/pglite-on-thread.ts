import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { ThreadReply, ThreadRequest, ThreadResults, ThreadStart } from "./pglite-protocol";
import { isAnswering, onAnsweringDone } from "./foreground";
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

/** What can run a transaction as well as statements: the database, or its background lane. */
export interface TransactionalStatements extends Statements {
  transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T>;
}

/**
 * How long background work is held back for pages and API calls before it goes anyway: under a
 * steady stream of them, indexing still moves on (decision 019).
 */
export const BACKGROUND_WAIT_MS = 100;

/** Which lane a request goes by: a request's own, or the background lane of the job handlers. */
type Lane = "foreground" | "background";

/**
 * Embedded PGlite on a thread of its own (api/db/pglite-thread.ts), with the members of PGlite that
 * Drizzle's PGlite driver, pg-boss's PGlite adapter and our start-up use: `query`, `exec`,
 * `transaction`, `listen`, `waitReady` and `close`. Statements keep PGlite's order and locking: the
 * thread runs them on the one PGlite, and a statement outside an open transaction waits for it.
 *
 * `background()` is the same database for work nobody is waiting on (the job handlers: crawling,
 * indexing, test runs). PGlite runs one statement at a time, first come first served, so while a
 * site is indexed every page and API call waited behind the pipeline's queued writes. A background
 * statement, or transaction from its start to its end, is sent to the thread one at a time, and
 * only when no other request is out and no page or API call is being answered (foreground.ts), or
 * once it has been held for BACKGROUND_WAIT_MS: a request then waits for at most the one background
 * statement or transaction already running, never for a queue of them.
 */
export class PGliteOnThread implements TransactionalStatements {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; lane: Lane }
  >();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private nextId = 1;
  private stopped: Error | null = null;
  /** Requests of the foreground lane sent and not yet answered. */
  private foregroundOut = 0;
  /** A background statement or transaction is running. */
  private backgroundRunning = false;
  /** Background work waiting for its turn, oldest first. */
  private readonly backgroundWaiting: (() => void)[] = [];
  /** Since when the next background work has been held back for other requests (null: it is not). */
  private heldSince: number | null = null;
  /** Stops following the process's answers (foreground.ts). */
  private readonly unfollowAnswers: () => void;
  private backgroundTimer: NodeJS.Timeout | null = null;
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
    this.unfollowAnswers = onAnsweringDone(() => this.nextInBackground());
    const opened = kept ? this.send({ op: "open", start }) : Promise.resolve();
    this.waitReady = opened.then(() => this.send({ op: "ready" })).then(() => undefined);
  }

  query(text: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResults> {
    return this.queryBy("foreground", text, params, options);
  }

  exec(text: string): Promise<ThreadResults[]> {
    return this.execBy("foreground", text);
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
    return this.transactionBy("foreground", work);
  }

  /** The same database for work nobody waits on: it gives way to every other request (see the class). */
  background(): TransactionalStatements {
    return {
      query: (text, params, options) => this.inTurn(() => this.queryBy("background", text, params, options)),
      exec: (text) => this.inTurn(() => this.execBy("background", text)),
      transaction: (work) => this.inTurn(() => this.transactionBy("background", work)),
    };
  }

  private queryBy(lane: Lane, text: string, params?: unknown[], options?: QueryOptions, tx?: number) {
    return timedStatement(
      () =>
        this.send(
          { op: "query", text, params, rowMode: options?.rowMode, rawDates: Boolean(options?.parsers), tx },
          lane,
        ) as Promise<ThreadResults>,
    );
  }

  private execBy(lane: Lane, text: string, tx?: number) {
    return timedStatement(() => this.send({ op: "exec", text, tx }, lane) as Promise<ThreadResults[]>);
  }

  private async transactionBy<T>(lane: Lane, work: (tx: Statements) => Promise<T>): Promise<T> {
    const tx = (await this.send({ op: "begin" }, lane)) as number;
    const statements: Statements = {
      query: (text, params, options) => this.queryBy(lane, text, params, options, tx),
      exec: (text) => this.execBy(lane, text, tx),
    };
    let result: T;
    try {
      result = await work(statements);
    } catch (error) {
      await this.send({ op: "end", tx, commit: false }, lane).catch(() => {});
      throw error;
    }
    await this.send({ op: "end", tx, commit: true }, lane);
    return result;
  }

  /** Runs one piece of background work once it is its turn (see the class), then lets the next go. */
  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    await new Promise<void>((go) => {
      this.backgroundWaiting.push(go);
      this.nextInBackground();
    });
    try {
      return await work();
    } finally {
      this.backgroundRunning = false;
      this.nextInBackground();
    }
  }

  /**
   * Lets the oldest background work go when nothing else is out and no page or API call is being
   * answered, or once it has waited BACKGROUND_WAIT_MS; else looks again when it will have.
   */
  private nextInBackground() {
    if (this.backgroundTimer) clearTimeout(this.backgroundTimer);
    this.backgroundTimer = null;
    if (!this.backgroundWaiting.length || this.backgroundRunning) return;
    const now = performance.now();
    this.heldSince ??= now;
    const untilAged = BACKGROUND_WAIT_MS - (now - this.heldSince);
    if (untilAged <= 0 || (this.foregroundOut === 0 && !isAnswering())) {
      this.heldSince = null;
      this.backgroundRunning = true;
      this.backgroundWaiting.shift()!();
      return;
    }
    this.backgroundTimer = setTimeout(() => this.nextInBackground(), untilAged);
    this.backgroundTimer.unref();
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
    this.stop(new Error("the database is closed"));
    await keepOrEnd(this.worker);
  }

  private send(request: Request, lane: Lane = "foreground"): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    // While a statement is out, the thread keeps the process alive: its answer is still to come.
    if (this.pending.size === 0) this.worker.ref();
    if (lane === "foreground") this.foregroundOut++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, lane });
      this.worker.postMessage({ ...request, id });
    });
  }

  private answered(lane: Lane) {
    if (lane !== "foreground") return;
    this.foregroundOut--;
    if (this.foregroundOut === 0) this.nextInBackground();
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
    this.answered(waiting.lane);
    if ("error" in reply) waiting.reject(Object.assign(new Error(reply.error.message), reply.error));
    else waiting.resolve(reply.result);
  }

  private stop(error: Error) {
    this.stopped ??= error;
    this.unfollowAnswers();
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
    this.foregroundOut = 0;
    // Waiting background work goes on to meet the error.
    for (const go of this.backgroundWaiting.splice(0)) go();
  }
}
