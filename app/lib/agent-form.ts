import { AGENT_TYPE_LABELS, AGENT_TYPES, agentTypesFor, MODE_ENV_LABELS } from "@contract/values/apps";
import { titleCase } from "./text";

/*
 * The agent screens' plain rules and values. The form's zod schema is in agent-form.schema.ts:
 * zod is most of a page's JavaScript, and this module is imported by pages that never validate
 * an agent (the client home groups its agents with it).
 */

export type AgentType = (typeof AGENT_TYPES)[number];

export { stripSiteCode } from "@contract/values/apps";

const isAgentType = (value: unknown): value is AgentType => (AGENT_TYPES as readonly unknown[]).includes(value);

/** An agent's type; a missing or unknown one is treated as enrollment (spec section 3). */
export const agentTypeOf = (value: string | null | undefined): AgentType => (isAgentType(value) ? value : "enrollment");

/** 'engagement' ⇒ 'Engagement'. */
export const agentTypeLabel = (value: string | null | undefined) => AGENT_TYPE_LABELS[agentTypeOf(value)];

/** 'staging' ⇒ 'Sandbox'; a value the console does not know is shown title-cased. */
export const modeEnvLabel = (value: string) =>
  (MODE_ENV_LABELS as Record<string, string | undefined>)[value] ?? titleCase(value);

/** 'engagement' ⇒ 'Engagement Agents'. */
export const agentGroupTitle = (type: AgentType) => `${AGENT_TYPE_LABELS[type]} Agents`;

/**
 * The type a new agent starts with: the one asked for (?type=) when the client works with it, else
 * the client's first type. The spec's default is enrollment; an ecommerce client starts with
 * ecommerce, or its new agent would belong to no group on its home.
 */
export function newAgentType(clientType: string, requested: string | null | undefined): AgentType {
  const offered = agentTypesFor(clientType);
  return isAgentType(requested) && offered.includes(requested) ? requested : offered[0];
}

export interface AgentGroup<T> {
  type: AgentType;
  title: string;
  agents: T[];
  /** The group ends with a 'Create New Agent' card (only the client's own types). */
  offersCreate: boolean;
}

/**
 * The agent list home's groups: 'Enrollment Agents' and 'Engagement Agents' for higher_ed (and
 * any other client type), only 'Ecommerce Agents' for ecommerce. An agent whose type the client
 * does not work with is not hidden: it gets a group of its own after them, without a create card.
 */
export function groupAgents<T extends { agent_type?: string | null }>(
  clientType: string,
  agents: T[],
): AgentGroup<T>[] {
  const own = agentTypesFor(clientType);
  const extra = AGENT_TYPES.filter(
    (type) => !own.includes(type) && agents.some((agent) => agentTypeOf(agent.agent_type) === type),
  );
  return [...own, ...extra].map((type) => ({
    type,
    title: agentGroupTitle(type),
    agents: agents.filter((agent) => agentTypeOf(agent.agent_type) === type),
    offersCreate: own.includes(type),
  }));
}

export interface AgentFormDefaults {
  id?: number;
  name: string;
  agent_type: AgentType;
  site_code: string;
  logo_url: string;
  url: string;
  status: string;
  mode_env: string;
}

/** A new agent's form: the spec's defaults (status active, mode staging). */
export const newAgentDefaults = (agentType: AgentType): AgentFormDefaults => ({
  name: "",
  agent_type: agentType,
  site_code: "",
  logo_url: "",
  url: "",
  status: "active",
  mode_env: "staging",
});

/** An existing agent as the form's starting values. */
export const agentFormDefaults = (agent: {
  id: number;
  name: string;
  agent_type: string;
  site_code: string;
  logo: string | null;
  url: string;
  status: string;
  mode_env: string;
}): AgentFormDefaults => ({
  id: agent.id,
  name: agent.name,
  agent_type: agentTypeOf(agent.agent_type),
  site_code: agent.site_code,
  logo_url: agent.logo ?? "",
  url: agent.url,
  status: agent.status,
  mode_env: agent.mode_env,
});

/** A logo URL the console will show: a path on this host or an http(s) address, nothing else. */
export const isShowableLogoUrl = (value: string) => /^(\/(?!\/)|https?:\/\/)/i.test(value);
