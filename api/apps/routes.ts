import { AppsList, AppsQuery } from "../../contract";
import type { RouteBuilder } from "../http/route";
import { listVisibleApps } from "./queries";

export function appRoutes(route: RouteBuilder) {
  route({
    method: "get", path: "/v1/apps", tag: "Clients",
    summary: "Client apps the caller may see, each with its agents. `status=active` filters to active clients.",
    query: AppsQuery, response: AppsList,
    handler: async ({ query, caller, deps }) => ({ apps: await listVisibleApps(caller, query.status, deps) }),
  });
}
