import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { RouteError } from "~/components/RouteError";
import { TriggerPointSelect } from "~/components/TriggerPointSelect";
import { DeletePromptConfirm, PromptsTable } from "~/components/tuning/PromptsTable";
import * as s from "~/components/tuning/tuning.css";
import { useTableGeneration } from "~/components/editable-table/RowsForm";
import { promptFormRow } from "~/lib/tuning";
import { tuningApi } from "~/server/api/tuning-api.server";
import { loadOrError, requireConfigure } from "~/server/permissions.server";
import { handlePromptsAction, tuningScreen, type PromptsActionData } from "~/server/tuning.server";
import * as ui from "~/styles/ui.css";
import { useCanConfigure } from "~/lib/user";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/**
 * Input prompts of one trigger point (legacy /{url_code}/ai-finetuning/input-prompts; at this
 * client-level path `?trigger_point=` chooses it, Default first). `?delete=<id>` asks before a
 * saved prompt is deleted.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api, app, choice, deleteParam } = await tuningScreen(args);
  const { data: prompts, error } = await loadOrError(() => tuningApi.inputPrompts(api, app.id, choice.triggerPoint));
  const deleting = prompts?.find((prompt) => String(prompt.id) === deleteParam) ?? null;
  return json({
    client: { id: app.id, name: app.client_name },
    choice,
    prompts: prompts ?? [],
    error,
    deleting: deleting ? { id: deleting.id, internal_name: deleting.internal_name } : null,
  });
}

/** Saves, adds or discards rows, and deletes a prompt; a client user (who may only look) gets 403. */
export async function action(args: ActionFunctionArgs) {
  const { api, app, choice, backTo } = await tuningScreen(args);
  await requireConfigure(api, app.id);
  return handlePromptsAction({ request: args.request, api, appId: app.id, choice, backTo });
}

export default function InputPrompts() {
  const { client, choice, prompts, error, deleting } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as PromptsActionData | undefined;
  const location = useLocation();
  const canConfigure = useCanConfigure(client.id);
  const params = new URLSearchParams(location.search);
  params.delete("delete");
  const cancelTo = `${location.pathname}${params.toString() ? `?${params}` : ""}`;
  const deleteHref = (promptId: string) => {
    const next = new URLSearchParams(params);
    next.set("delete", promptId);
    return `?${next}`;
  };

  const tableKey = useTableGeneration(posted, { triggerPoint: choice.triggerPoint, prompts });
  return (
    <section>
      <h1>Input Prompts</h1>
      <p className={s.intro}>
        Named prompts the assistant uses for this trigger point. Each needs a Prompt Key (letters, digits, _ . -) and
        its text.
      </p>
      <TriggerPointSelect choice={choice} />
      {deleting && canConfigure ? <DeletePromptConfirm prompt={deleting} cancelTo={cancelTo} /> : null}
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : (
        <PromptsTable
          // A new trigger point, a saved change or an action's answer starts the table afresh.
          key={tableKey}
          rows={posted?.rows ?? prompts.map(promptFormRow)}
          errors={posted?.errors ?? []}
          formError={posted?.formError ?? null}
          canConfigure={canConfigure}
          deleteHref={deleteHref}
        />
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Input Prompts · ${data.client.name} · Assistant Console` : "Input Prompts · Assistant Console" },
];

export function ErrorBoundary() {
  return <RouteError />;
}
