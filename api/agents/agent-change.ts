import { and, eq } from "drizzle-orm";
import type { Agent } from "@contract";
import { agentTypeOf } from "../apps/queries";
import { agents } from "../db/schema";
import { changedFields } from "../history/describe";
import { AGENT_LABELS } from "../history/readable/client";
import type { Change } from "../history/record";

type AgentRow = typeof agents.$inferSelect;

/** An agent's columns from its wire fields, as the agent form and an export file carry them. */
export const agentColumns = (agent: Omit<Agent, "id" | "app_id" | "logo"> & { logo?: string | null }) => ({
  name: agent.name,
  agentType: agent.agent_type,
  siteCode: agent.site_code,
  logo: agent.logo ?? null,
  url: agent.url,
  status: agent.status,
  modeEnv: agent.mode_env,
  metadata: agent.metadata,
});

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

/** An agent as GET answers it, or null when the client has no such agent. */
export const agentChange = (appId: number, ids: number[]): Change<Agent> => ({
  appId,
  kind: "agent",
  targets: ids.map(String),
  created: (agent) => [String(agent.id)],
  read: async (id, db) => {
    const [row] = await db
      .select()
      .from(agents)
      .where(and(eq(agents.appId, appId), eq(agents.id, Number(id))));
    return row ? toAgent(row) : null;
  },
  summary: (_, before, after) => {
    const { name } = (after ?? before) as Agent;
    // Named by the agent form's labels, as History's lines name them.
    const labels = changedFields(before, after).map((field) => AGENT_LABELS[field] ?? field.replace(/_/g, " "));
    return before ? `Agent ${name}: ${labels.join(", ")} changed` : `Agent ${name} added`;
  },
});
