import { eq } from "drizzle-orm";
import type { Executor } from "../controls/scope";
import { clientApps } from "../db/schema";
import { changedFields } from "../history/describe";
import { CLIENT_PROFILE_LABELS } from "../history/readable/client";
import type { Change } from "../history/record";

/**
 * The client's profile as GET /v1/apps answers it, without its agents (recorded as agents) and
 * its save time: the fields of the client form, and the status staff set. It holds no secret.
 */
async function profileOf(appId: number, db: Executor) {
  const [app] = await db.select().from(clientApps).where(eq(clientApps.id, appId));
  if (!app) return null;
  return {
    client_name: app.clientName,
    primary_website: app.primaryWebsite,
    logo_url: app.logoUrl,
    country: app.country,
    market: app.market,
    project_url: app.projectUrl,
    url_code: app.urlCode,
    copy_market: app.copyMarket,
    client_type: app.clientType,
    trigger_points: app.triggerPoints,
    mode_env: app.modeEnv,
    insync_prod_app_id: app.insyncProdAppId,
    onboard_existing_client: app.onboardExistingClient,
    notes: app.notes,
    status: app.status,
  };
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
