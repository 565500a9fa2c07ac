import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RouteError } from "~/components/RouteError";
import { FinetuningTables } from "~/components/tuning/FinetuningTables";
import * as s from "~/components/tuning/tuning.css";
import { useTableGeneration } from "~/components/editable-table/RowsForm";
import { finetuningFormRow, siteOptions } from "~/lib/tuning";
import { tuningApi } from "~/server/api/tuning-api.server";
import { loadOrError, requireConfigure } from "~/server/permissions.server";
import { handleFinetuningsAction, tuningScreen, type FinetuningsActionData } from "~/server/tuning.server";
import * as ui from "~/styles/ui.css";
import { useCanConfigure } from "~/lib/user";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/**
 * The client's AI Finetuning rules (legacy /{url_code}/ai-finetuning/ai-finetuning): three tables
 * of every site at once, each row naming its site (Default, a trigger point or an agent).
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api, app } = await tuningScreen(args);
  const { data: finetunings, error } = await loadOrError(() => tuningApi.finetunings(api, app.id));
  return json({
    client: { id: app.id, name: app.client_name },
    sites: siteOptions(app),
    finetunings: finetunings ?? [],
    error,
  });
}

/** One save for all three tables, or a row added or deleted without JavaScript; a client user gets 403. */
export async function action(args: ActionFunctionArgs) {
  const { api, app, backTo } = await tuningScreen(args);
  await requireConfigure(api, app.id);
  return handleFinetuningsAction({ request: args.request, api, appId: app.id, backTo });
}

export default function AiFinetuning() {
  const { client, sites, finetunings, error } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as FinetuningsActionData | undefined;
  const canConfigure = useCanConfigure(client.id);

  const tableKey = useTableGeneration(posted, finetunings);
  return (
    <section>
      <h1>AI Finetuning</h1>
      <p className={s.intro}>
        Rules that weigh which pages the assistant answers from, and what is cut out of pages before they are indexed.
        Changes in all three tables are saved together.
      </p>
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : (
        <FinetuningTables
          key={tableKey}
          rows={posted?.rows ?? finetunings.map(finetuningFormRow)}
          errors={posted?.errors ?? []}
          formError={posted?.formError ?? null}
          sites={sites}
          canConfigure={canConfigure}
        />
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `AI Finetuning · ${data.client.name} · Assistant Console` : "AI Finetuning · Assistant Console" },
];

export function ErrorBoundary() {
  return <RouteError />;
}
