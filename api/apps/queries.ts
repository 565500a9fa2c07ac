import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { ClientApp } from "../../contract";
import type { Caller } from "../auth/caller";
import { isStaff } from "../auth/permissions";
import type { ApiDeps } from "../deps";
import { agents, clientApps } from "../db/schema";

type AppRow = typeof clientApps.$inferSelect;
type AgentRow = typeof agents.$inferSelect;

export function toClientApp(app: AppRow, appAgents: AgentRow[]): ClientApp {
  return {
    id: app.id,
    client_name: app.clientName,
    primary_website: app.primaryWebsite,
    logo_url: app.logoUrl,
    country: app.country,
    market: app.market,
    project_url: app.projectUrl,
    notes: app.notes,
    url_code: app.urlCode,
    copy_market: app.copyMarket,
    client_type: app.clientType,
    onboard_existing_client: app.onboardExistingClient,
    trigger_points: app.triggerPoints,
    mode_env: app.modeEnv,
    insync_prod_app_id: app.insyncProdAppId,
    status: app.status,
    agents: appAgents.map((a) => ({
      id: a.id,
      name: a.name,
      site_code: a.siteCode,
      // The spec: a missing type is treated as enrollment.
      agent_type: (["enrollment", "engagement", "ecommerce"].includes(a.agentType) ? a.agentType : "enrollment") as ClientApp["agents"][number]["agent_type"],
      logo: a.logo,
      status: a.status,
    })),
  };
}

/** The client apps a caller may see (staff: all; others: those they hold a role in), with agents. */
export async function listVisibleApps(caller: Caller, status: string | undefined, deps: Pick<ApiDeps, "db">) {
  const conditions: SQL[] = [];
  if (status) conditions.push(eq(clientApps.status, status));
  if (!isStaff(caller)) {
    const ids = [...caller.appRoles.keys()];
    if (!ids.length) return [];
    conditions.push(inArray(clientApps.id, ids));
  }
  const apps = await deps.db.select().from(clientApps).where(and(...conditions)).orderBy(asc(clientApps.clientName));
  if (!apps.length) return [];
  const appAgents = await deps.db
    .select()
    .from(agents)
    .where(inArray(agents.appId, apps.map((a) => a.id)))
    .orderBy(asc(agents.id));
  return apps.map((app) => toClientApp(app, appAgents.filter((a) => a.appId === app.id)));
}
