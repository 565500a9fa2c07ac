import { eq, sql } from "drizzle-orm";
import type { Executor } from "../controls/scope";
import { clientApps } from "../db/schema";
import { changedFields } from "../history/describe";
import { CLIENT_PROFILE_LABELS } from "../history/readable/client";
import type { Change } from "../history/record";
import { toClientApp } from "./queries";

/**
 * The client's profile as GET /v1/apps answers it, without its agents (recorded as agents) and
 * its save time: the fields of the client form, and the status staff set. It holds no secret.
 */
async function profileOf(appId: number, db: Executor) {
  const [app] = await db.select().from(clientApps).where(eq(clientApps.id, appId));
  if (!app) return null;
  const { id: _id, agents: _agents, ...profile } = toClientApp(app, []);
  return profile;
}

/** A save of the client's profile: one target, the client itself (""). */
export const clientProfileChange = (appId: number): Change => ({
  appId,
  kind: "client",
  targets: [""],
  read: (_, db) => profileOf(appId, db),
  summary: (_, before, after) => {
    // Named by the form's labels, as History's lines name them.
    const labels = changedFields(before, after).map(
      (field) => CLIENT_PROFILE_LABELS[field] ?? field.replace(/_/g, " "),
    );
    return `Client Profile: ${labels.join(", ")} changed`;
  },
});

/**
 * The id the next client will have. Taken before the client is inserted, so that its creation is
 * recorded like any other save: read before (nothing), saved, read after.
 */
export async function nextClientId(db: Executor) {
  const result = await db.execute(sql`select nextval(pg_get_serial_sequence('client_apps', 'id'))::int as id`);
  return Number((result as unknown as { rows: { id: number }[] }).rows[0].id);
}

/** A client's creation: its profile recorded with nothing before it. */
export const clientCreatedChange = (appId: number): Change => ({
  ...clientProfileChange(appId),
  summary: (_, __, after) => `Client ${(after as { client_name: string }).client_name} created`,
});
