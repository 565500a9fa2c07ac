import type { ClientApp } from "@contract";
import { selectedAgentFor } from "~/lib/clients";
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
