import type { ClientApp } from "@contract";
import { RESERVED_URL_CODES } from "@contract/values/url-codes";
import { decodeSegment } from "./text";

const RESERVED = new Set<string>(RESERVED_URL_CODES);

/** The back-office host's pages of a client: `/backoffice/{url_code}/dashboard`, `…/user_profiles`. */
const BACKOFFICE_SEGMENT = "backoffice";

/**
 * The spec's client selection: the first path segment matched against the url_code of the
 * loaded client list (the second under /backoffice, whose pages are a client's too). Global paths
 * (/clients, /users, …) never select a client.
 */
export function selectedClientFor(pathname: string, apps: ClientApp[]): ClientApp | null {
  const [, first = "", second = ""] = pathname.split("/").map(decodeSegment);
  const code = first === BACKOFFICE_SEGMENT ? second : first;
  if (!code || (first !== BACKOFFICE_SEGMENT && RESERVED.has(first))) return null;
  return apps.find((app) => app.url_code === code) ?? null;
}

/** Whether a path is one of a client's back-office pages. */
export const isBackofficePath = (pathname: string) => pathname.split("/")[1] === BACKOFFICE_SEGMENT;

/**
 * A client-scoped path whose first segment matches no loaded client: the spec shows a loading
 * skeleton for it until the client list is in, then the 404 page.
 */
export function isUnknownClientPath(pathname: string, apps: ClientApp[]) {
  const first = decodeSegment(pathname.split("/")[1] ?? "");
  if (!first || RESERVED.has(first)) return false;
  return !selectedClientFor(pathname, apps);
}

/** An agent's path segment: its site code, or its name when it has none. */
export const agentSegment = (agent: { site_code: string; name: string }) => agent.site_code || agent.name;

/** The agent segment of an address under `/:appName/agent/:agentName/…`, as written; null elsewhere. */
export function agentSegmentOf(pathname: string) {
  const [, , agentWord, agentName] = pathname.split("/");
  return agentWord === "agent" && agentName ? agentName : null;
}

/** The agent an agent-level path points at (`/{url_code}/agent/{site_code or name}`). */
export function selectedAgentFor(pathname: string, app: ClientApp | null) {
  if (!app) return null;
  const agentName = agentSegmentOf(pathname);
  if (!agentName) return null;
  const wanted = decodeSegment(agentName);
  return (
    app.agents.find((agent) => agent.site_code === wanted) ?? app.agents.find((agent) => agent.name === wanted) ?? null
  );
}
