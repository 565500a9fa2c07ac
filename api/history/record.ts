import { isDeepStrictEqual } from "node:util";
import { cutText } from "@contract";
import { sql } from "drizzle-orm";
import type { ChangeKind } from "@contract";
import type { Executor } from "../controls/scope";
import type { Database } from "../db/client";
import { configChanges } from "../db/schema";
import type { ApiDeps } from "../deps";
import { placeNamesOf, type PlaceName } from "./readable/places";
import { contentOf, writtenBy } from "./written";

/** Who made a change: the signed-in caller. */
export interface Author {
  id: number;
  email: string;
}

/** What one save may change, and how to read and describe it. */
export interface Change<T = unknown> {
  appId: number;
  kind: ChangeKind;
  /** Which things of the kind the save may change, each recorded on its own (trigger points, a model type, an agent's id). */
  targets: string[];
  /** Things the save creates, known only from its result (a new agent): recorded with nothing before. */
  created?: (result: T) => string[];
  /** The thing as the API answers it (secrets left out), or null when there is none. */
  read: (target: string, db: Executor) => Promise<unknown>;
  /** One line of the History screen; `placeName` names a trigger point by its agent's name as it is after the save. */
  summary: (target: string, before: unknown, after: unknown, placeName: PlaceName) => string;
}

/** Summaries are one line of the History screen, not a document. */
const MAX_SUMMARY = 500;

/** What jsonb will hold: dates as text, undefined fields gone. Comparing this way, a save that changes nothing records nothing. */
const asStored = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

/**
 * Runs a save and records what it changed, in one transaction: each target is read before and
 * after the save, and each that differs becomes a row of config_changes. A save that fails records
 * nothing, and a recorded change is never lost for a save that stands. The save runs on the
 * transaction (its own transactions become savepoints of it), so it must not queue jobs: those go
 * after, once the change is committed.
 */
export async function recordChange<T>(
  deps: Pick<ApiDeps, "db">,
  author: Author,
  change: Change<T>,
  save: (db: Database) => Promise<T>,
) {
  return recordChanges(deps, author, [change], save);
}

/**
 * `recordChange` for a save that changes things of several kinds at once (an import from an export
 * file): every kind's targets are read before and after the one save, each kind's rows described
 * by its own summary. `via` names what made the change, ahead of each summary.
 */
export async function recordChanges<T>(
  deps: Pick<ApiDeps, "db">,
  author: Author,
  changes: Change<T>[],
  save: (db: Database) => Promise<T>,
  via?: string,
) {
  return deps.db.transaction(async (tx) => {
    await lockTargets(tx, changes);
    const before = changes.map(() => new Map<string, unknown>());
    for (const [i, change] of changes.entries())
      for (const target of change.targets) before[i].set(target, asStored(await change.read(target, tx)));
    const result = await save(tx);
    const recorded: number[] = [];
    // Read once per client, after the save: a summary names the agents as the save left them.
    const placeNames = new Map<number, PlaceName>();
    const placeNameOf = async (appId: number) => {
      if (!placeNames.has(appId)) placeNames.set(appId, await placeNamesOf(appId, tx));
      return placeNames.get(appId)!;
    };
    for (const [i, change] of changes.entries()) {
      const targets = [...new Set([...change.targets, ...(change.created?.(result) ?? [])])];
      for (const target of targets) {
        const was = before[i].get(target) ?? null;
        const now = asStored(await change.read(target, tx));
        if (isDeepStrictEqual(contentOf(change.kind, was), contentOf(change.kind, now))) continue;
        const summary = change.summary(target, was, now, await placeNameOf(change.appId));
        const written = via ? `${via}: ${summary}` : summary;
        recorded.push(
          await insertChange(tx, author, {
            appId: change.appId,
            kind: change.kind,
            target,
            summary: written,
            before: was,
            after: now,
          }),
        );
      }
    }
    return { result, recorded };
  });
}

/** The first key of the advisory locks a recorded save holds on what it changes (the second is the thing's hash). */
const RECORDED_SAVE_LOCK = 4_210_519;

/**
 * Holds, until the transaction ends, a lock on each thing the save may change, in one order so two
 * saves never wait for each other crosswise. Two saves of one thing at once then run one after the
 * other: the second reads what the first wrote, both as what it merges into (an appearance's other
 * values) and as the "before" History records, which a revert writes back.
 */
async function lockTargets(tx: Database, changes: Pick<Change, "appId" | "kind" | "targets">[]) {
  const keys = [
    ...new Set(changes.flatMap((change) => change.targets.map((t) => `${change.appId}:${change.kind}:${t}`))),
  ];
  if (!keys.length) return;
  await tx.execute(sql`
    select pg_advisory_xact_lock(${RECORDED_SAVE_LOCK}, ordered.key)
    from (select distinct hashtext(thing) as key from unnest(array[${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )}]::text[]) as thing order by 1) as ordered`);
}

/**
 * Records a request that is no state of its own (URLs asked to be indexed, skipped or deleted,
 * added by hand): who asked, what, and the addresses it named (`after`), so History says who
 * asked for the work the pipeline then did. Recorded once the request stands.
 */
export async function recordRequest(
  deps: Pick<ApiDeps, "db">,
  author: Author,
  request: { appId: number; kind: ChangeKind; target: string; summary: string; before?: unknown; after: unknown },
) {
  await insertChange(deps.db, author, { ...request, before: request.before ?? null });
}

/** One row of config_changes: what both a recorded save and a recorded request write. Answers its id. */
async function insertChange(
  db: Executor,
  author: Author,
  change: { appId: number; kind: ChangeKind; target: string; summary: string; before: unknown; after: unknown },
) {
  const [row] = await db
    .insert(configChanges)
    .values({
      appId: change.appId,
      userId: author.id,
      userEmail: author.email,
      kind: change.kind,
      target: change.target,
      summary: cutText(change.summary, MAX_SUMMARY),
      before: change.before,
      after: change.after,
      written: writtenBy(change.kind, change.before, change.after),
      // When it was recorded, not when its transaction began (`now()`): a save that waited for
      // another's lock on the same target began first but changes after it, and History orders by
      // this time.
      at: sql`clock_timestamp()`,
    })
    .returning({ id: configChanges.id });
  return row.id;
}
