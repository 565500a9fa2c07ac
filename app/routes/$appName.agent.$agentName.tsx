import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { RouteError } from "~/components/RouteError";
import { requireAgentOf, requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { keepLayoutData } from "~/lib/revalidation";

/** Agent-level pages: the agent must belong to the client. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireClient(request, consoleContext(context), params.appName);
  const agent = requireAgentOf(app, new URL(request.url).pathname);
  return json({ agentId: agent.id, siteCode: agent.site_code });
}

export default function AgentScope() {
  return <Outlet />;
}

/** The agent depends on the address's first three segments alone (`/{client}/agent/{agent}`). */
export const shouldRevalidate = keepLayoutData(3);

export function ErrorBoundary() {
  return <RouteError />;
}
