import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { ne, sql, type AnyColumn } from "drizzle-orm";
import type { Database } from "../db/client";
import { workerLeases } from "../db/schema";
import type { Logger } from "../deps";

export interface LeaseOptions {
  /** How long a lease lasts without renewal; it is renewed three times in that span. */
  seconds: number;
  /**
   * True on an embedded database, which only this process can open: every earlier lease belongs
   * to a process that is gone, so its work is taken back at once instead of after its expiry.
   */
  soleProcess: boolean;
  log: Logger;
  /**
   * Runs after each renewal, given this lease's worker id: the recovery sweep of work held by
   * workers whose lease lapsed, and of this worker's own claims that no job has in hand.
   */
  afterRenewal?: (workerId: string) => Promise<unknown>;
}

/**
 * A job-handling process's claim on the work it holds. URLs, files and sitemap discoveries record
 * the worker id when claimed; the row in worker_leases says whether that worker is still alive.
 * A killed process stops renewing, its lease lapses within `seconds`, and the next sweep of any
 * live process takes its work back. A live worker renews well before expiry, so its work is never taken.
 */
export class WorkerLease {
  readonly workerId = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  private constructor(
    private readonly db: Database,
    private readonly options: LeaseOptions,
  ) {}

  static async start(db: Database, options: LeaseOptions) {
    const lease = new WorkerLease(db, options);
    if (options.soleProcess) await db.delete(workerLeases).where(ne(workerLeases.workerId, lease.workerId));
    await lease.renew();
    lease.timer = setInterval(() => lease.tick(), (options.seconds * 1000) / 3);
    lease.timer.unref();
    return lease;
  }

  /** Extends the lease from the database's clock (re-creating it if a sweep removed it). */
  async renew() {
    const expiresAt = sql`now() + make_interval(secs => ${this.options.seconds})`;
    await this.db
      .insert(workerLeases)
      .values({ workerId: this.workerId, process: `${hostname()}:${process.pid}`.slice(0, 200), expiresAt })
      .onConflictDoUpdate({ target: workerLeases.workerId, set: { expiresAt } });
  }

  /** One renewal and sweep at a time: a slow database must not pile them up. */
  private tick() {
    if (this.ticking) return;
    this.ticking = (async () => {
      try {
        await this.renew();
        await this.options.afterRenewal?.(this.workerId);
      } catch (error) {
        this.options.log.warn(`worker lease renewal or recovery sweep failed: ${(error as Error).message}`);
      } finally {
        this.ticking = null;
      }
    })();
  }

  /** No more renewals or sweeps (the lease stays valid until it lapses): first thing when stopping. */
  async stopRenewing() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** Gives the lease up, so whatever this process still holds is taken back at once. */
  async release() {
    await this.stopRenewing();
    await this.db.delete(workerLeases).where(sql`${workerLeases.workerId} = ${this.workerId}`);
  }
}

/** Thrown when a claim was taken back (its worker's lease lapsed) before the work was written. */
export class ClaimLost extends Error {}

/** True when `claimedBy` names a worker whose lease has not lapsed (database clock). */
export const heldByLiveWorker = (claimedBy: AnyColumn) =>
  sql`exists (select 1 from worker_leases where worker_leases.worker_id = ${claimedBy} and worker_leases.expires_at > now())`;
