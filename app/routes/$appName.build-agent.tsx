import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { titleMeta } from "~/lib/page-title";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AgentFormView } from "~/components/agents/AgentForm";
import { RouteError } from "~/components/RouteError";
import { userCan } from "~/lib/permissions";
import { loadAgentForm, submitAgentForm } from "~/server/agent-form.server";
import { consoleContext } from "~/server/context.server";
import { useOptionalUser } from "~/lib/user";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

const titleOf = (mode: "create" | "edit") => (mode === "edit" ? "Edit Agent" : "Create Agent");

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return json(await loadAgentForm(request, consoleContext(context), params.appName));
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return submitAgentForm(request, consoleContext(context), params.appName);
}

export default function BuildAgent() {
  const { mode, client, defaultValue, formAction } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const user = useOptionalUser();
  const canSave = user ? userCan(user, "configure", client.id) : false;
  return (
    <section aria-labelledby="agent-form-title">
      <h1 id="agent-form-title">{titleOf(mode)}</h1>
      <AgentFormView
        // Another agent (or a saved one) starts the form afresh.
        key={formAction}
        mode={mode}
        defaultValue={defaultValue}
        lastResult={lastResult}
        action={formAction}
        cancelTo={`/${client.url_code}`}
        readOnly={!canSave}
      />
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error }) => titleMeta(error, titleOf(data?.mode ?? "create"));

export function ErrorBoundary() {
  return <RouteError />;
}
