import { and, asc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { AppInput as AppInputSchema, ClientApp } from "@contract";
import type { z } from "zod";
import type { Caller } from "../auth/caller";
import { isStaff } from "../auth/permissions";
import type { ApiDeps } from "../deps";
import { preparedPerDatabase } from "../db/prepared";
import { agents, clientApps } from "../db/schema";
import { notFound } from "../http/errors";
import { containing } from "../db/like";

type AppRow = typeof clientApps.$inferSelect;
type AgentRow = typeof agents.$inferSelect;

/** A missing or unknown agent type is treated as enrollment (the spec). */
export const agentTypeOf = (value: string) =>
  (["enrollment", "engagement", "ecommerce"].includes(value)
    ? value
    : "enrollment") as ClientApp["agents"][number]["agent_type"];

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
      agent_type: agentTypeOf(a.agentType),
      logo: a.logo,
      status: a.status,
    })),
  };
}

/** The client form's fields as table columns (both create and update). */
export function appColumns(input: z.output<typeof AppInputSchema>) {
  return {
    clientName: input.client_name,
    primaryWebsite: input.primary_website,
    notes: input.notes,
    urlCode: input.url_code,
    projectUrl: input.project_url,
    market: input.market,
    logoUrl: input.logo_url ?? null,
    country: input.country,
    copyMarket: input.copy_market,
    clientType: input.client_type,
    onboardExistingClient: input.onboard_existing_client,
    triggerPoints: input.trigger_points,
    modeEnv: input.mode_env,
    insyncProdAppId: input.insync_prod_app_id ?? null,
    ...(input.status ? { status: input.status } : {}),
  };
}

/** The client apps a caller may see (staff: all; others: those they hold a role in), with agents. */
/**
 * The client list as the console's shell asks for it on every page: prepared (api/db/prepared.ts).
 * By name, and clients of one name as they were onboarded: PostgreSQL keeps no order of its own
 * among rows the sort leaves tied, and gives a changed row back after the others.
 */
const allAppsQuery = preparedPerDatabase((db) =>
  db.select().from(clientApps).orderBy(asc(clientApps.clientName), asc(clientApps.id)).prepare("list_apps"),
);
const appsByIdQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(clientApps)
    .where(sql`${clientApps.id} = any(${sql.placeholder("ids")})`)
    .orderBy(asc(clientApps.clientName), asc(clientApps.id))
    .prepare("list_apps_by_id"),
);
const agentsOfAppsQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(agents)
    .where(sql`${agents.appId} = any(${sql.placeholder("appIds")})`)
    .orderBy(asc(agents.id))
    .prepare("list_agents_of_apps"),
);

export async function listVisibleApps(
  caller: Caller,
  filters: { status?: string; search?: string },
  deps: Pick<ApiDeps, "db">,
) {
  const visibleIds = isStaff(caller) ? null : [...caller.appRoles.keys()];
  if (visibleIds && !visibleIds.length) return [];
  let apps: (typeof clientApps.$inferSelect)[];
  if (!filters.status && !filters.search) {
    apps = visibleIds
      ? await appsByIdQuery(deps.db).execute({ ids: visibleIds })
      : await allAppsQuery(deps.db).execute();
  } else {
    const conditions: SQL[] = [];
    if (filters.status) conditions.push(eq(clientApps.status, filters.status));
    if (filters.search) {
      const pattern = containing(filters.search);
      conditions.push(or(ilike(clientApps.clientName, pattern), ilike(clientApps.urlCode, pattern))!);
    }
    if (visibleIds) conditions.push(inArray(clientApps.id, visibleIds));
    apps = await deps.db
      .select()
      .from(clientApps)
      .where(and(...conditions))
      .orderBy(asc(clientApps.clientName), asc(clientApps.id));
  }
  if (!apps.length) return [];
  const appAgents = await agentsOfAppsQuery(deps.db).execute({ appIds: apps.map((a) => a.id) });
  return apps.map((app) =>
    toClientApp(
      app,
      appAgents.filter((a) => a.appId === app.id),
    ),
  );
}

export async function loadClientApp(appId: number, deps: Pick<ApiDeps, "db">): Promise<ClientApp> {
  const [app] = await deps.db.select().from(clientApps).where(eq(clientApps.id, appId));
  if (!app) throw notFound("Client not found");
  const appAgents = await deps.db.select().from(agents).where(eq(agents.appId, appId)).orderBy(asc(agents.id));
  return toClientApp(app, appAgents);
}
