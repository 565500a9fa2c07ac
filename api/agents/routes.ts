import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { Agent, AgentInput, AgentLogoUpload, IdParam } from "../../contract";
import { storeLogos } from "../apps/routes";
import { agentTypeOf } from "../apps/queries";
import { requireApp } from "../auth/permissions";
import { ensureDefaultPersonality } from "../controls/defaults";
import { isUniqueViolation } from "../db/errors";
import { agents, clientApps } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";

type AgentRow = typeof agents.$inferSelect;

export function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    app_id: row.appId,
    name: row.name,
    agent_type: agentTypeOf(row.agentType),
    site_code: row.siteCode,
    logo: row.logo,
    url: row.url,
    status: row.status,
    mode_env: row.modeEnv,
    metadata: row.metadata,
  };
}

async function findAgent(appId: number, agentId: number, deps: Pick<ApiDeps, "db">) {
  const [row] = await deps.db.select().from(agents).where(and(eq(agents.appId, appId), eq(agents.id, agentId)));
  if (!row) throw notFound("Agent not found");
  return row;
}

const siteCodeTaken = (code: string) =>
  badRequest("Invalid request body", { site_code: [`The site code ${code} is already used by another agent of this client`] });

export function agentRoutes(route: RouteBuilder) {
  const AppParams = z.object({ appId: IdParam });

  route({
    method: "get", path: "/v1/apps/:appId/agents/:agentId", tag: "Agents", summary: "One agent, for editing.",
    params: z.object({ appId: IdParam, agentId: IdParam }), response: Agent,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      return toAgent(await findAgent(params.appId, params.agentId, deps));
    },
  });

  route({
    method: "post", path: "/v1/apps/:appId/agents/update_agents", tag: "Agents",
    summary: "Creates an agent (no id) or updates one (with id). Defaults: type enrollment, status active, mode_env staging, metadata {}. A new agent of a typed client gets the default personality for its site code.",
    params: AppParams, body: AgentInput, response: Agent,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      if (body.app_id !== params.appId) throw badRequest("Invalid request body", { app_id: ["app_id must be the client of this path"] });
      const values = {
        name: body.name, agentType: body.agent_type, siteCode: body.site_code, logo: body.logo ?? null, url: body.url,
        status: body.status, modeEnv: body.mode_env, metadata: body.metadata,
      };
      try {
        if (body.id) {
          await findAgent(params.appId, body.id, deps);
          const [updated] = await deps.db.update(agents).set({ ...values, updatedAt: new Date() }).where(eq(agents.id, body.id)).returning();
          return toAgent(updated);
        }
        const [created] = await deps.db.insert(agents).values({ ...values, appId: params.appId }).returning();
        const [app] = await deps.db.select({ clientType: clientApps.clientType }).from(clientApps).where(eq(clientApps.id, params.appId));
        if (app?.clientType) await ensureDefaultPersonality(params.appId, app.clientType, created.siteCode, deps);
        return toAgent(created);
      } catch (error) {
        if (isUniqueViolation(error)) throw siteCodeTaken(body.site_code);
        throw error;
      }
    },
  });

  route({
    method: "post", path: "/v1/apps/:appId/agents/logo_upload", tag: "Agents", form: true,
    summary: "Uploads an agent logo (one .svg, .png or .img file in `file`); answers its URL.",
    params: AppParams, response: AgentLogoUpload,
    handler: async ({ params, form, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const files = ["file", "files[]", "files"].flatMap((name) => form?.getAll(name) ?? []).filter((v): v is File => typeof v !== "string");
      if (files.length > 1) throw badRequest("Upload a single logo file", { file: ["Upload a single logo file"] });
      const [url] = await storeLogos(files, `agents/${params.appId}`, deps);
      return { url, message: "Logo uploaded" };
    },
  });
}
