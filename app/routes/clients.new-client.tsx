import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { ClientFormView } from "~/components/clients/ClientForm";
import { ONBOARD_TITLE } from "~/components/clients/texts";
import { RouteError } from "~/components/RouteError";
import { NEW_CLIENT_DEFAULTS } from "~/lib/client-form";
import { userCan } from "~/lib/permissions";
import { requireApi } from "~/server/api/client.server";
import { getUserInfo } from "~/server/api/users-api.server";
import { invariantResponse } from "~/server/clients.server";
import { submitClientForm } from "~/server/client-form.server";
import { consoleContext } from "~/server/context.server";
import { requireUserWithPermission } from "~/server/permissions.server";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  invariantResponse(userCan(await getUserInfo(api), "create_client"), "Only staff may onboard clients", 403);
  return json(null);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  // Refused before the form's logo is stored: the API's own refusal would come after the upload.
  await requireUserWithPermission(api, "create_client");
  return submitClientForm(request, api, null);
}

export default function NewClient() {
  const lastResult = useActionData<typeof action>();
  return (
    <section aria-labelledby="client-form-title">
      <h1 id="client-form-title">{ONBOARD_TITLE}</h1>
      <ClientFormView mode="create" defaultValue={NEW_CLIENT_DEFAULTS} lastResult={lastResult} cancelTo="/admin" />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${ONBOARD_TITLE} · Assistant Console` }];

export function ErrorBoundary() {
  return <RouteError />;
}
