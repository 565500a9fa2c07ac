import { and, eq, ne, sql } from "drizzle-orm";
import type { Context } from "hono";
import { z } from "zod";
import { Agent, AgentInput, AgentLogoUpload, IdParam, siteCodeInUse } from "@contract";
import { agentTypeNotOffered, agentTypesFor } from "@contract/values/apps";
import { storeLogos } from "../apps/routes";
import { can, requireApp } from "../auth/permissions";
import { ensureDefaultPersonality } from "../controls/defaults";
import { isUniqueViolation } from "../db/errors";
import { agents, clientApps } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { recordChange } from "../history/record";
import { agentChange, agentColumns, toAgent } from "./agent-change";
import { moveTriggerPoint } from "./site-code-rename";
import type { StorageWrites } from "../http/storage-writes";

async function findAgent(appId: number, agentId: number, deps: Pick<ApiDeps, "db">) {
  const [row] = await deps.db
    .select()
    .from(agents)
    .where(and(eq(agents.appId, appId), eq(agents.id, agentId)));
  if (!row) throw notFound("Agent not found");
  return row;
}

async function findAgentBySiteCode(appId: number, siteCode: string, deps: Pick<ApiDeps, "db">) {
  const [row] = await deps.db
    .select()
    .from(agents)
    .where(and(eq(agents.appId, appId), eq(agents.siteCode, siteCode)));
  return row ?? null;
}

/**
 * Whether another agent of the client has this site code in any case: "Admissions" beside
 * "admissions" would read as one agent in addresses, menus and trigger point selectors.
 */
async function siteCodeHeldByAnother(
  appId: number,
  siteCode: string,
  agentId: number | null,
  deps: Pick<ApiDeps, "db">,
) {
  const [row] = await deps.db
    .select({ id: agents.id })
    .from(agents)
    .where(
      and(
        eq(agents.appId, appId),
        sql`lower(${agents.siteCode}) = lower(${siteCode})`,
        agentId === null ? undefined : ne(agents.id, agentId),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The first key of the lock a save holds while it gives an agent a site code (the second is the client's id). */
const SITE_CODE_LOCK = 4_210_521;

/** The wire name of each stored agent field: an update changes only the fields its body names. */
const AGENT_FIELD_NAMES = {
  name: "name",
  agentType: "agent_type",
  siteCode: "site_code",
  logo: "logo",
  url: "url",
  status: "status",
  modeEnv: "mode_env",
  metadata: "metadata",
} as const;

/** The keys the JSON body named (the validated body has defaults filled in, so it cannot tell). */
async function sentFieldsOf(c: Context) {
  const raw: unknown = await c.req.json().catch(() => ({}));
  return new Set(raw && typeof raw === "object" ? Object.keys(raw) : []);
}

/**
 * The agent form shows the mode read-only, and a client's own mode is staff's to set: an agent is
 * not moved into production (nor created there) by someone who may not edit the client.
 */
const modeReadOnly = () =>
  badRequest("Invalid request body", { mode_env: ["An agent's mode is read-only; staff change it"] });

/**
 * Whether a logo is one uploaded for this client (logo_upload stores it under the client's id): an
 * agent shows only images of its own client, as the widget's images are, never another client's
 * file nor an outside address every reader of the client's home would load.
 */
const isOwnLogo = (appId: number, logo: string) =>
  new RegExp(`^/storage/public/agents/${appId}/[0-9a-f-]{36}\\.(?:png|jpg|gif|webp|svg)$`).test(logo);
const logoNotOwn = () =>
  badRequest("Invalid request body", { logo: ["The logo must be an image uploaded for this client"] });

const siteCodeTaken = (code: string) => badRequest("Invalid request body", { site_code: [siteCodeInUse(code)] });

export function agentRoutes(route: RouteBuilder, storageWrites: StorageWrites) {
  const AppParams = z.object({ appId: IdParam });

  route({
    method: "get",
    path: "/v1/apps/:appId/agents/:agentId",
    tag: "Agents",
    summary: "One agent, for editing.",
    params: z.object({ appId: IdParam, agentId: IdParam }),
    response: Agent,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      return toAgent(await findAgent(params.appId, params.agentId, deps));
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/agents/update_agents",
    tag: "Agents",
    summary:
      "Creates or updates an agent. The agent updated is the one of `id` when given, else the client's agent with this `site_code`; otherwise a new one is created (defaults: the client's first agent type, enrollment or for an ecommerce client ecommerce; status active, mode_env staging, metadata {}), and a typed client's new agent gets the default personality for its site code. An update changes only the fields sent. Only staff may create an agent in production or change its mode_env. A logo set or changed must be one logo_upload stored for this client. A type the client does not work with is refused (higher_ed: enrollment and engagement; ecommerce: ecommerce).",
    params: AppParams,
    body: AgentInput,
    response: Agent,
    handler: async ({ params, body, c, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      if (body.app_id !== params.appId)
        throw badRequest("Invalid request body", { app_id: ["app_id must be the client of this path"] });
      const values = agentColumns(body);
      try {
        const existing = body.id
          ? await findAgent(params.appId, body.id, deps)
          : await findAgentBySiteCode(params.appId, body.site_code, deps);
        const sent = await sentFieldsOf(c);
        // A client works with agents of its own types (spec: higher_ed enrollment and engagement,
        // ecommerce only ecommerce); a new agent sent without one takes the client's first.
        // Staff may address any client id, so one that names no client is answered as every other
        // client-scoped call answers it.
        const [client] = await deps.db
          .select({ clientType: clientApps.clientType })
          .from(clientApps)
          .where(eq(clientApps.id, params.appId));
        if (!client) throw notFound("Client not found");
        const { clientType } = client;
        const offered: string[] = agentTypesFor(clientType);
        if (!existing && !sent.has("agent_type")) values.agentType = agentTypesFor(clientType)[0];
        else if (
          sent.has("agent_type") &&
          body.agent_type !== existing?.agentType &&
          !offered.includes(body.agent_type)
        )
          throw badRequest("Invalid request body", { agent_type: [agentTypeNotOffered(clientType)] });
        const modeChanges = existing
          ? sent.has("mode_env") && body.mode_env !== existing.modeEnv
          : body.mode_env !== "staging";
        if (modeChanges && !can(caller, "edit_client", params.appId)) throw modeReadOnly();
        // A logo the agent has already stays through a save that sends it back.
        const logoChanges = existing ? sent.has("logo") && (body.logo ?? null) !== existing.logo : true;
        if (logoChanges && body.logo && !isOwnLogo(params.appId, body.logo)) throw logoNotOwn();
        const codeChanges = !existing || (sent.has("site_code") && existing.siteCode !== body.site_code);
        const { result: agent } = await recordChange(
          deps,
          caller,
          agentChange(params.appId, existing ? [existing.id] : []),
          async (db) => {
            if (codeChanges) {
              // One claim of a client's site codes at a time, checked under the lock: two saves at once
              // both found "Racer" and "racer" free, and the client had two agents of one code.
              await db.execute(sql`select pg_advisory_xact_lock(${SITE_CODE_LOCK}, ${params.appId})`);
              if (await siteCodeHeldByAnother(params.appId, body.site_code, existing?.id ?? null, { db }))
                throw siteCodeTaken(body.site_code);
            }
            if (existing) {
              const changed = Object.fromEntries(
                Object.entries(values).filter(([key]) => sent.has(AGENT_FIELD_NAMES[key as keyof typeof values])),
              );
              if (typeof changed.siteCode === "string") {
                // Read again under the save's lock: a rename that committed meanwhile moved the code on,
                // and this one moves the agent's settings from where they are now.
                const [now] = await db
                  .select({ siteCode: agents.siteCode })
                  .from(agents)
                  .where(eq(agents.id, existing.id));
                if (!now) throw notFound("Agent not found");
                if (now.siteCode !== changed.siteCode)
                  await moveTriggerPoint(db, params.appId, now.siteCode, changed.siteCode);
              }
              const [updated] = await db
                .update(agents)
                .set({ ...changed, updatedAt: new Date() })
                .where(eq(agents.id, existing.id))
                .returning();
              return toAgent(updated);
            }
            const [created] = await db
              .insert(agents)
              .values({ ...values, appId: params.appId })
              .returning();
            return toAgent(created);
          },
        );
        // After the agent is committed: a failure here is logged and never undoes the agent.
        if (!existing && clientType) await ensureDefaultPersonality(params.appId, clientType, agent.site_code, deps);
        return agent;
      } catch (error) {
        if (isUniqueViolation(error)) throw siteCodeTaken(body.site_code);
        throw error;
      }
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/agents/logo_upload",
    tag: "Agents",
    form: true,
    summary: "Uploads an agent logo (one .svg, .png or .img file in `file`); answers its URL.",
    params: AppParams,
    response: AgentLogoUpload,
    handler: async ({ params, form, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const files = ["file", "files[]", "files"]
        .flatMap((name) => form?.getAll(name) ?? [])
        .filter((v): v is File => typeof v !== "string");
      if (files.length > 1) throw badRequest("Upload a single logo file", { file: ["Upload a single logo file"] });
      await storageWrites.take(caller);
      const [url] = await storeLogos(files, `agents/${params.appId}`, deps);
      return { url, message: "Logo uploaded" };
    },
  });
}
