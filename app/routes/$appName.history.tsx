import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { ConfirmStep } from "~/components/ConfirmStep";
import { HistoryFilters } from "~/components/history/HistoryFilters";
import { HistoryTable, laterChangesQuestion, type ConfirmAddress } from "~/components/history/HistoryTable";
import { laterChangesOn } from "~/lib/history";
import { Pagination } from "~/components/Pagination";
import { RouteError } from "~/components/RouteError";
import { consoleContext } from "~/server/context.server";
import { loadHistory, restoreFromHistory } from "~/server/history.server";
import * as ui from "~/styles/ui.css";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const history = await loadHistory(request, consoleContext(context), params.appName);
  return json(history, { status: history.kindError ? 400 : 200 });
}

/** Restore this state; a client_user (who may only look) gets 403. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return restoreFromHistory(request, consoleContext(context), params.appName);
}

export default function History() {
  const {
    client,
    filters,
    kindError,
    kinds,
    people,
    changes,
    confirming,
    total,
    totalIsCapped,
    page,
    totalPages,
    error,
    canRestore,
  } = useLoaderData<typeof loader>();
  const location = useLocation();
  const withConfirm = (value: string | null) => {
    const params = new URLSearchParams(location.search);
    if (value) params.set("confirm", value);
    else params.delete("confirm");
    return `?${params}`;
  };
  const confirmTo: ConfirmAddress = (intent, id) => withConfirm(`${intent}-${id}`);
  return (
    <section>
      <h1>History</h1>
      <p className={ui.muted}>
        Every configuration change of {client.name}: who made it, when, and what it changed.{" "}
        {totalIsCapped ? "More than " : ""}
        {total.toLocaleString("en")} change{total === 1 ? "" : "s"} shown by these filters.
      </p>
      <HistoryFilters kinds={kinds} people={people} filters={filters} kindError={kindError} />
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : null}
      {confirming && canRestore ? (
        <ConfirmStep
          label={confirming.intent === "revert" ? "Revert this change" : "Restore this state"}
          question={laterChangesQuestion(confirming.intent, confirming.change)}
          confirm={confirming.intent === "revert" ? "Revert" : "Restore"}
          intent={confirming.intent}
          cancelTo={withConfirm(null)}
          focusKey={`${confirming.intent}-${confirming.change.id}`}
        >
          <input type="hidden" name="id" value={confirming.change.id} />
          <input type="hidden" name="later_changes" value={laterChangesOn(confirming.intent, confirming.change)} />
        </ConfirmStep>
      ) : null}
      <HistoryTable changes={changes} canRestore={canRestore} confirmTo={confirmTo} />
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
