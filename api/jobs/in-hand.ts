import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { heldByLiveWorker } from "./leases";

/**
 * The rows one worker of this process has claimed and is working on now. A claim in the database
 * can outlive the work: when the statement that would write the outcome fails because the
 * database went away, or a claim committed but its answer was lost, the row stays claimed by a
 * worker whose lease still holds, and the lapsed-lease sweep would never take it back. The
 * worker's own sweep puts back in line what it holds in the database but no job has in hand.
 */
export class ClaimsInHand {
  private readonly ids = new Set<number>();
  private claiming = 0;
  private sweeping: Promise<unknown> | null = null;

  /** Runs a claim statement and holds the rows it answers. */
  async claim<Row extends { id: number }>(statement: () => Promise<Row[]>): Promise<Row[]> {
    // A sweep reads what is in hand before its statement runs: rows claimed meanwhile would look dropped.
    while (this.sweeping) await this.sweeping.catch(() => {});
    this.claiming += 1;
    try {
      const rows = await statement();
      for (const row of rows) this.ids.add(row.id);
      return rows;
    } finally {
      this.claiming -= 1;
    }
  }

  /** The work on these rows is over, whether or not its outcome could be written. */
  drop(ids: Iterable<number>) {
    for (const id of ids) this.ids.delete(id);
  }

  /**
   * Runs a sweep with the ids in hand, which it must leave alone; with null while a claim is on its
   * way (its rows may be committed and not yet in hand), when it must leave all of this worker's alone.
   */
  async sweep<T>(statement: (inHand: number[] | null) => Promise<T>): Promise<T> {
    while (this.sweeping) await this.sweeping.catch(() => {});
    if (this.claiming) return statement(null);
    const sweeping = statement([...this.ids]);
    this.sweeping = sweeping;
    try {
      return await sweeping;
    } finally {
      this.sweeping = null;
    }
  }
}

/** What a worker claims and keeps in hand: a website's URLs, and uploaded files. */
export type ClaimKind = "urls" | "files";

const inHandByWorker = new Map<string, ClaimsInHand>();

/** The rows of `kind` the worker `workerId` (of this process) has in hand. */
export function claimsInHand(kind: ClaimKind, workerId: string) {
  const key = `${kind}:${workerId}`;
  let inHand = inHandByWorker.get(key);
  if (!inHand) inHandByWorker.set(key, (inHand = new ClaimsInHand()));
  return inHand;
}

/**
 * Runs a recovery sweep's statement over claims of `kind` (a table's `id` and `claimed_by`), given
 * the condition for those it takes back: claims of no live worker (its lease lapsed, or a claim
 * from before leases), and, when the sweeping process's `workerId` is given, that worker's own
 * claims that no job of it has in hand (jobs whose outcome could not be written while the
 * database was away). A claim of this worker on its way leaves all of its claims alone.
 */
export function sweepAbandoned<T>(
  kind: ClaimKind,
  claims: { id: AnyColumn; claimedBy: AnyColumn },
  workerId: string | undefined,
  statement: (abandoned: SQL) => Promise<T>,
): Promise<T> {
  const abandoned = (inHand: number[] | null) =>
    inHand && workerId
      ? sql`(not ${heldByLiveWorker(claims.claimedBy)} or (${claims.claimedBy} = ${workerId} and ${claims.id} <> all(${`{${inHand.join(",")}}`}::integer[])))`
      : sql`not ${heldByLiveWorker(claims.claimedBy)}`;
  return workerId
    ? claimsInHand(kind, workerId).sweep((inHand) => statement(abandoned(inHand)))
    : statement(abandoned(null));
}
