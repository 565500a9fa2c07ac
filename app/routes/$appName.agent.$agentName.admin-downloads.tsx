import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ADMIN_DOWNLOADS_TITLE, AdminDownloads } from "~/components/downloads/AdminDownloads";
import { RouteError } from "~/components/RouteError";
import { agentPageMeta } from "~/lib/page-title";
import { consoleContext } from "~/server/context.server";
import { downloadFile, loadDownloads } from "~/server/downloads.server";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** The agent-level page shows the same client files (the parent route checks the agent belongs to the client; the action checks it itself). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return json(await loadDownloads(request, consoleContext(context), params.appName));
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return downloadFile(request, consoleContext(context), params.appName);
}

export default function AgentAdminDownloads() {
  const { files, error } = useLoaderData<typeof loader>();
  return <AdminDownloads files={files} error={error} />;
}

/** "Admin Downloads · <agent> · <client> · Assistant Console" (the agent only at its address), or the 404 title. */
export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, ADMIN_DOWNLOADS_TITLE);

export function ErrorBoundary() {
  return <RouteError />;
}
