import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AgentGroups } from "~/components/agents/AgentGroups";
import { ClientPreferences, EXPORT_INTENT } from "~/components/agents/ClientPreferences";
import { RouteError } from "~/components/RouteError";
import { groupAgents } from "~/lib/agent-form";
import { userCan } from "~/lib/permissions";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { exportClientApp } from "~/server/downloads.server";
import * as ui from "~/styles/ui.css";
import { readForm } from "~/server/http/form-data.server";
import { useOptionalUser } from "~/lib/user";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireClient(request, consoleContext(context), params.appName);
  return json({
    client: { id: app.id, client_name: app.client_name, url_code: app.url_code, client_type: app.client_type },
    groups: groupAgents(app.client_type, app.agents),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const intent = (await readForm(request)).get("intent");
  switch (intent) {
    case EXPORT_INTENT:
      return exportClientApp(api, app);
    default:
      throw new Response("Unknown intent", { status: 400, statusText: "Unknown intent" });
  }
}

export default function AgentListHome() {
  const { client, groups } = useLoaderData<typeof loader>();
  const exported = useActionData<typeof action>();
  const user = useOptionalUser();
  const canConfigure = user ? userCan(user, "configure", client.id) : false;
  return (
    <section aria-labelledby="agents-title">
      <header className={ui.pageHeader}>
        <h1 id="agents-title">Agents</h1>
      </header>
      <ClientPreferences
        urlCode={client.url_code}
        canExport={canConfigure}
        exportError={exported && "exportError" in exported ? exported.exportError : undefined}
      />
      <AgentGroups urlCode={client.url_code} groups={groups} canConfigure={canConfigure} />
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `${data.client.client_name} Agents` : "Agents"} · Assistant Console` },
];

export function ErrorBoundary() {
  return <RouteError />;
}
