import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { ClientCard } from "~/components/clients/ClientCard";
import { ClientSearch } from "~/components/clients/ClientSearch";
import { ClientTypeTabs } from "~/components/clients/ClientTypeTabs";
import { clientTabs, tabKeyOf } from "~/components/clients/client-tabs";
import * as s from "~/components/clients/clients.css";
import { NO_CLIENT_ACCESS_TEXT, NO_CLIENTS_TEXT } from "~/components/clients/texts";
import { RouteError } from "~/components/RouteError";
import { isStaff, userCan } from "~/lib/permissions";
import type { loader as rootLoader } from "~/root";
import { requireApi } from "~/server/api/client.server";
import { listActiveApps } from "~/server/api/apps-api.server";
import { getUserInfo } from "~/server/api/users-api.server";
import { consoleContext } from "~/server/context.server";
import * as ui from "~/styles/ui.css";
import { readSearchParam } from "~/lib/query-params";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** The client list (also at /): `?type=` picks the tab, `?search=` filters by name or url_code. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  const params = new URL(request.url).searchParams;
  const search = readSearchParam(params.get("search"), 100);
  const [apps, me] = await Promise.all([listActiveApps(api, search || undefined), getUserInfo(api)]);
  const { tabs, selected } = clientTabs(apps, params.get("type"));
  const clients = apps
    .filter((app) => tabKeyOf(app.client_type) === selected)
    .map(({ id, client_name, url_code, logo_url, status }) => ({ id, client_name, url_code, logo_url, status }));
  // Someone removed from their last client still signs in: they are told why the list is empty, not
  // shown empty tabs to search.
  const noClientAccess = !isStaff(me) && me.app_roles.length === 0;
  return json({ search, tabs, selected, clients, noClientAccess });
}

export default function ClientsList() {
  const { search, tabs, selected, clients, noClientAccess } = useLoaderData<typeof loader>();
  const signedIn = useRouteLoaderData<typeof rootLoader>("root")?.signedIn;
  const canCreate = signedIn ? userCan(signedIn.user, "create_client") : false;
  return (
    <section aria-labelledby="clients-title">
      <div className={ui.pageHeader}>
        <h1 id="clients-title">Clients</h1>
        {canCreate ? (
          <div className={s.headerActions}>
            <Link to="/clients/import" className={ui.button.secondary}>
              Import Clients
            </Link>
            <Link to="/clients/new-client" className={ui.button.primary}>
              + Create New Client
            </Link>
          </div>
        ) : null}
      </div>
      {noClientAccess ? (
        <p role="status">{NO_CLIENT_ACCESS_TEXT}</p>
      ) : (
        <ClientsOfType search={search} tabs={tabs} selected={selected} clients={clients} />
      )}
    </section>
  );
}

type ClientsData = Omit<ReturnType<typeof useLoaderData<typeof loader>>, "noClientAccess">;

function ClientsOfType({ search, tabs, selected, clients }: ClientsData) {
  return (
    <>
      <div className={ui.toolbar}>
        <ClientSearch search={search} />
      </div>
      <ClientTypeTabs tabs={tabs} selected={selected} search={search} />
      {clients.length ? (
        <ul className={s.grid} aria-label="Clients">
          {clients.map((client) => (
            <li key={client.id}>
              <ClientCard client={client} />
            </li>
          ))}
        </ul>
      ) : (
        <p className={ui.muted}>{NO_CLIENTS_TEXT}</p>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Clients · Assistant Console" }];

export function ErrorBoundary() {
  return <RouteError />;
}
