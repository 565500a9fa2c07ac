import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  HISTORY_COUNT_CAP,
  LATER_CHANGES_CAP,
  HistoryList,
  HistoryQuery,
  HistoryRestoreBody,
  HistoryRestored,
  IdParam,
  isRestorableKind,
  NOT_RESTORABLE,
  type ChangeKind,
} from "@contract";
import { requireApp } from "../auth/permissions";
import { clientScope } from "../controls/scope";
import { configChanges } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest, HttpError, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { targetWrittenBy } from "./kinds";
import { placeNamesOf, readableChanges } from "./readable";
import { restoreChange } from "./restore";

const AppParams = z.object({ appId: IdParam });
const ChangeParams = z.object({ appId: IdParam, id: IdParam });

/**
 * For each of `rows`, how many changes were made after it to the thing its restore and revert write
 * (`targetWrittenBy`: its own, but stage's appearance for a production one), counted up to
 * LATER_CHANGES_CAP: each a short range of the (app, kind, target, id) index. `later` is what a
 * restore writes over (the whole thing); `onRevert` only those that wrote some of what a revert of
 * it writes back (`written`: a No-Go save's revert leaves a later Quality Check change be).
 */
async function laterChangesOf(appId: number, rows: { id: number; kind: string; target: string }[], db: ApiDeps["db"]) {
  if (!rows.length) return new Map<number, { later: number; onRevert: number }>();
  const counted = (alsoWhere: SQL) => sql`(
      select count(*)::int from (
        select 1 from config_changes later
        where later.app_id = change.app_id and later.kind = change.kind and later.target = writes.target
          and later.id > change.id ${alsoWhere}
        limit ${LATER_CHANGES_CAP}
      ) as counted
    )`;
  // Null is the whole thing: a revert that writes it all, or a change that wrote it all.
  const undoneByRevert = sql`and (change.written is null or later.written is null or later.written && change.written)`;
  const writes = rows.map((row) => sql`(${row.id}::int, ${targetWrittenBy(row.kind as ChangeKind, row.target)}::text)`);
  const result = await db.execute(sql`
    select change.id, ${counted(sql``)} as later, ${counted(undoneByRevert)} as on_revert
    from config_changes change
    join (values ${sql.join(writes, sql`, `)}) as writes(id, target) on writes.id = change.id
    where change.app_id = ${appId}`);
  const found = (result as unknown as { rows: { id: number; later: number; on_revert: number }[] }).rows;
  return new Map(found.map((row) => [Number(row.id), { later: Number(row.later), onRevert: Number(row.on_revert) }]));
}

/** Why a revert or restore asked for with fewer later changes than there are now is refused. */
const changedSinceShown = (state: "before" | "after", later: number) =>
  `This was changed again since History was shown (${later === 1 ? "1 later change" : `${later} later changes`} now): ` +
  `look at ${later === 1 ? "it" : "them"} before you ${state === "before" ? "revert" : "restore"}, ` +
  `as ${later === 1 ? "it" : "they"} would go too`;

/** The History screen's calls: every configuration change of a client, and writing a recorded state back. */
export function historyRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/apps/:appId/history",
    tag: "History",
    summary:
      "The client's configuration changes, latest first, paged: who, when, what it did in readable lines (list items matched by " +
      "what they are, named as the screens name them), and the thing before and after as the API shows it (integrations without " +
      "secrets). `kind` and `user` (an email) filter them.",
    params: AppParams,
    query: HistoryQuery,
    response: HistoryList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      await clientScope(params.appId, deps.db);
      const conditions: SQL[] = [eq(configChanges.appId, params.appId)];
      if (query.kind) conditions.push(eq(configChanges.kind, query.kind));
      if (query.user) conditions.push(eq(configChanges.userEmail, query.user));
      const where = and(...conditions);
      // Counting every change of a long history reads every row (100,000 on PGlite: ~75 ms a page);
      // up to the cap it reads the index's first entries only.
      const counted = deps.db
        .select({ id: configChanges.id })
        .from(configChanges)
        .where(where)
        .limit(HISTORY_COUNT_CAP + 1)
        .as("counted");
      const [{ total }] = await deps.db.select({ total: count() }).from(counted);
      const rows = await deps.db
        .select()
        .from(configChanges)
        .where(where)
        .orderBy(desc(configChanges.at), desc(configChanges.id))
        .limit(query.page_size)
        .offset((query.page - 1) * query.page_size);
      const placeName = await placeNamesOf(params.appId, deps.db);
      const later = await laterChangesOf(params.appId, rows, deps.db);
      return {
        data: rows.map((row) => ({
          id: row.id,
          at: row.at.toISOString(),
          user_email: row.userEmail,
          kind: row.kind as ChangeKind,
          summary: row.summary,
          changes: readableChanges(row.kind as ChangeKind, row.target, row.before, row.after, placeName),
          before: row.before ?? null,
          after: row.after ?? null,
          later_changes: later.get(row.id)?.later ?? 0,
          later_changes_on_revert: later.get(row.id)?.onRevert ?? 0,
          restores_into_stage: targetWrittenBy(row.kind as ChangeKind, row.target) !== row.target,
        })),
        total: Math.min(Number(total), HISTORY_COUNT_CAP),
        total_is_capped: Number(total) > HISTORY_COUNT_CAP,
      };
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/history/:id/restore",
    tag: "History",
    summary:
      "Writes a change's state back (controls, finetuning, input prompts, appearance, data models) through that kind's own save, " +
      'records it as a change, and queues test runs where that save would. `state`: "after" (the default) puts back what the change ' +
      'led to, "before" reverts it. Other kinds answer 400.',
    params: ChangeParams,
    body: HistoryRestoreBody,
    response: HistoryRestored,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const [entry] = await deps.db
        .select()
        .from(configChanges)
        .where(and(eq(configChanges.appId, params.appId), eq(configChanges.id, params.id)));
      if (!entry) throw notFound("Change not found");
      if (!isRestorableKind(entry.kind)) throw badRequest(NOT_RESTORABLE);
      if (body.later_changes !== undefined) {
        const counts = (await laterChangesOf(params.appId, [entry], deps.db)).get(entry.id);
        // Compared with the count shown for this state: a revert leaves some later changes be.
        const later = (body.state === "before" ? counts?.onRevert : counts?.later) ?? 0;
        if (later > body.later_changes) throw new HttpError(409, changedSinceShown(body.state, later));
      }
      return restoreChange(entry, body.state, caller, deps);
    },
  });
}
