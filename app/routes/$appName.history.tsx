import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { HistoryFilters } from "~/components/history/HistoryFilters";
import { HistoryTable } from "~/components/history/HistoryTable";
import { Pagination } from "~/components/Pagination";
import { RouteError } from "~/components/RouteError";
import { consoleContext } from "~/server/context.server";
import { loadHistory, restoreFromHistory } from "~/server/history.server";
import * as ui from "~/styles/ui.css";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return json(await loadHistory(request, consoleContext(context), params.appName));
}

/** Restore this state; a client_user (who may only look) gets 403. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return restoreFromHistory(request, consoleContext(context), params.appName);
}

export default function History() {
  const { client, filters, kinds, people, changes, total, totalIsCapped, page, totalPages, error, canRestore } =
    useLoaderData<typeof loader>();
  return (
    <section>
      <h1>History</h1>
      <p className={ui.muted}>
        Every configuration change of {client.name}: who made it, when, and what it changed.{" "}
        {totalIsCapped ? "More than " : ""}
        {total.toLocaleString("en")} change{total === 1 ? "" : "s"} shown by these filters.
      </p>
      <HistoryFilters kinds={kinds} people={people} filters={filters} />
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : null}
      <HistoryTable changes={changes} canRestore={canRestore} />
      <Pagination page={page} totalPages={totalPages} countIsCapped={totalIsCapped} />
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `History · ${data.client.name} · Assistant Console` : "History · Assistant Console" },
];

export function ErrorBoundary() {
  return <RouteError />;
}
