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

const urlsByWorker = new Map<string, ClaimsInHand>();

/** The URLs the worker `workerId` (of this process) has in hand. */
export function urlsInHand(workerId: string) {
  let inHand = urlsByWorker.get(workerId);
  if (!inHand) urlsByWorker.set(workerId, (inHand = new ClaimsInHand()));
  return inHand;
}
