import type { ClientApp } from "@contract";
import { cutText, REFUSED_CHARACTERS } from "@contract/text";
import { agentSegment, selectedAgentFor } from "./clients";

export const DEFAULT_TRIGGER_POINT_LABEL = "Default";

/** A trigger point as people know it: its agent's name, "Default" for '', else the code itself. */
export const triggerPointName = (app: Pick<ClientApp, "agents">, triggerPoint: string) =>
  triggerPoint === ""
    ? DEFAULT_TRIGGER_POINT_LABEL
    : (app.agents.find((agent) => agent.site_code === triggerPoint)?.name ?? triggerPoint);

/**
 * Every trigger point of a client besides the default: those its profile lists and its agents'
 * site codes (an agent answers on its own, whether or not the profile lists it).
 */
export const triggerPointsOf = (app: Pick<ClientApp, "trigger_points" | "agents">) =>
  [...new Set([...app.trigger_points, ...app.agents.map((agent) => agent.site_code)])].filter(Boolean);

/**
 * Business Insights filters with their trigger point checked against the client's: one the client
 * lacks (an old link, a renamed agent's code) would show zeros under a selector reading "All", so
 * the screen shows all of them and says why by the selector.
 */
export function withClientTriggerPoint<F extends { trigger_point?: string }>(
  app: Pick<ClientApp, "trigger_points" | "agents">,
  filters: F,
): { filters: F; triggerPointError: string | null } {
  const asked = filters.trigger_point;
  if (!asked || triggerPointsOf(app).includes(asked)) return { filters, triggerPointError: null };
  return {
    filters: { ...filters, trigger_point: undefined },
    // Said as it was asked, but on one line and short: the address is anyone's to write.
    triggerPointError: `“${cutText(asked.replace(REFUSED_CHARACTERS, " "), 100)}” is not a trigger point of this client (showing all of them)`,
  };
}

export interface TriggerPointChoice {
  /** '' is the client-wide default. */
  triggerPoint: string;
  /** Show the selector: the client has trigger points and no agent fixes one. */
  selectable: boolean;
  /** The selector's entries, 'Default' first. */
  options: { value: string; label: string }[];
}

/**
 * Which trigger point a controls screen edits. Under an agent it is the agent's site code (fixed);
 * at client level it comes from `?trigger_point=` among the client's trigger points, or the default.
 */
export function triggerPointFor(app: ClientApp, pathname: string, search: URLSearchParams): TriggerPointChoice {
  const agent = selectedAgentFor(pathname, app);
  if (agent) return { triggerPoint: agent.site_code, selectable: false, options: [] };
  const options = [
    { value: "", label: DEFAULT_TRIGGER_POINT_LABEL },
    ...app.trigger_points.map((point) => ({ value: point, label: point })),
  ];
  const asked = search.get("trigger_point") ?? "";
  const triggerPoint = app.trigger_points.includes(asked) ? asked : "";
  return { triggerPoint, selectable: app.trigger_points.length > 0, options };
}

/**
 * A per-trigger-point controls screen of a trigger point: its agent's, or the client's with the
 * trigger point chosen (Default, and codes no agent has).
 */
export function controlsPathFor(
  app: ClientApp,
  triggerPoint: string,
  screen: "test-questions" | "quality-check" | "no-go-topics" | "sensitive-topics",
) {
  const agent = app.agents.find((candidate) => candidate.site_code === triggerPoint);
  if (agent) return `/${app.url_code}/agent/${encodeURIComponent(agentSegment(agent))}/controls/${screen}`;
  return `/${app.url_code}/controls/${screen}${triggerPoint ? `?${new URLSearchParams({ trigger_point: triggerPoint })}` : ""}`;
}

/** Where the test questions of a trigger point are kept. */
export const testQuestionsPathFor = (app: ClientApp, triggerPoint: string) =>
  controlsPathFor(app, triggerPoint, "test-questions");

/** The client's AI Finetuning rules (one screen for every trigger point, each rule naming its own). */
export const finetuningPathFor = (app: Pick<ClientApp, "url_code">) => `/${app.url_code}/ai-finetuning/ai-finetuning`;

/** Where a trigger point's knowledge is added: its agent's AI Knowledge Store, or the client's websites. */
export function knowledgeStorePathFor(app: ClientApp, triggerPoint: string) {
  const agent = app.agents.find((candidate) => candidate.site_code === triggerPoint);
  if (agent) return `/${app.url_code}/agent/${encodeURIComponent(agentSegment(agent))}/knowledge-store`;
  return `/${app.url_code}/ai-training/websites`;
}

/** Where the client's uploaded files are tagged for an environment: the Files screen, under the trigger point's agent when it has one. */
export function filesPathFor(app: ClientApp, triggerPoint: string) {
  const agent = app.agents.find((candidate) => candidate.site_code === triggerPoint);
  if (agent) return `/${app.url_code}/agent/${encodeURIComponent(agentSegment(agent))}/knowledge-store/files`;
  return `/${app.url_code}/ai-training/files`;
}
