import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { RouteError } from "~/components/RouteError";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { keepLayoutData } from "~/lib/revalidation";

/** Every client-scoped page: the first path segment must be the url_code of a client the user may see. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireClient(request, consoleContext(context), params.appName);
  return json({ appId: app.id });
}

export default function ClientScope() {
  return <Outlet />;
}

/** The client depends on the address's first segment alone. */
export const shouldRevalidate = keepLayoutData(1);

export function ErrorBoundary() {
  return <RouteError />;
}
