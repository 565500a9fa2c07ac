import type { ClientApp } from "@contract";
import { agentSegmentOf, selectedAgentFor } from "~/lib/clients";
import { triggerPointFor } from "~/lib/trigger-points";
import { requireApi } from "./api/client.server";
import { listActiveApps } from "./api/apps-api.server";
import type { ConsoleContext } from "./context.server";

export function invariantResponse(condition: unknown, message: string, status = 404): asserts condition {
  if (!condition) throw new Response(message, { status, statusText: message });
}

/**
 * The client a client-scoped route belongs to (by url_code), or a 404 the caller may not see past;
 * also every client the caller sees (for screens that name another one).
 */
export async function requireClient(request: Request, context: ConsoleContext, urlCode: string | undefined) {
  const api = await requireApi(request, context);
  const apps = await listActiveApps(api);
  const app = apps.find((candidate) => candidate.url_code === urlCode);
  invariantResponse(app, "Client not found");
  return { api, app, apps };
}

/** The agent of an agent-level route (by site code, or by name when it has none). */
export function requireAgentOf(app: ClientApp, pathname: string) {
  const agent = selectedAgentFor(pathname, app);
  invariantResponse(agent, "Agent not found");
  return agent;
}

/**
 * The trigger point a per-trigger-point screen edits, from its address. A `?trigger_point=` the
 * client does not have is not found: read as Default, a stale link would show and save the
 * client's default settings under a name the operator did not mean.
 */
export function requireTriggerPoint(app: ClientApp, pathname: string, search: URLSearchParams) {
  // Under an agent the client lacks (renamed, removed, mistyped), the trigger point is not read as
  // Default's: actions run without the parent route's check, and saving would change every agent's settings.
  if (agentSegmentOf(pathname)) requireAgentOf(app, pathname);
  const choice = triggerPointFor(app, pathname, search);
  const asked = search.get("trigger_point") ?? "";
  invariantResponse(
    !asked || selectedAgentFor(pathname, app) || choice.triggerPoint === asked,
    // Not the asked value itself: it is any text from the address (a status line takes no control characters).
    "This client has no such trigger point",
  );
  return choice;
}
