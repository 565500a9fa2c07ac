import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { ClientFormView } from "~/components/clients/ClientForm";
import { editTitle } from "~/components/clients/texts";
import { RouteError } from "~/components/RouteError";
import { clientFormDefaults } from "~/lib/client-form";
import { userCan } from "~/lib/permissions";
import { requireClient } from "~/server/clients.server";
import { submitClientForm } from "~/server/client-form.server";
import { requireConfigure } from "~/server/permissions.server";
import { consoleContext } from "~/server/context.server";
import { useOptionalUser } from "~/lib/user";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireClient(request, consoleContext(context), params.appName);
  return json({ app });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  // Before the form is read: a read-only user is told they may not change this, whatever they posted.
  await requireConfigure(api, app.id);
  return submitClientForm(request, api, app);
}

export default function ManageClient() {
  const { app } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const user = useOptionalUser();
  const canSave = user ? userCan(user, "configure", app.id) : false;
  const defaultValue = useMemo(() => clientFormDefaults(app), [app]);
  return (
    <section aria-labelledby="client-form-title">
      <h1 id="client-form-title">{editTitle(app.client_name)}</h1>
      <ClientFormView
        // A saved client (new loader data) starts the form afresh: new logo, cleared file input.
        key={JSON.stringify(defaultValue)}
        mode="edit"
        defaultValue={defaultValue}
        lastResult={lastResult}
        readOnly={!canSave}
        cancelTo={`/${app.url_code}`}
      />
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? editTitle(data.app.client_name) : "Client Profile"} · Assistant Console` },
];

export function ErrorBoundary() {
  return <RouteError />;
}
