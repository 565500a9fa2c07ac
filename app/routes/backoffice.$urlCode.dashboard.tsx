import type { MetaFunction } from "@remix-run/node";
import { Dashboard } from "~/components/insights/Dashboard";
import { RouteError } from "~/components/RouteError";
import { dashboardAction, dashboardLoader } from "~/server/insights.server";
import { titleMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** Business Insights of one client (`?from&to&triggerPoint&environment`), on the back-office host. */
export const loader = dashboardLoader;
export const action = dashboardAction;

export default function BusinessInsights() {
  return <Dashboard />;
}

export const meta: MetaFunction<typeof loader> = ({ data, error }) =>
  titleMeta(error, "Business Insights", data?.client.name);

export function ErrorBoundary() {
  return <RouteError />;
}
