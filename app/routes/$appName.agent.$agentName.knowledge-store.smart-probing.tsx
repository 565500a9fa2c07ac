import type { SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AI_PROBING_TYPES } from "@contract/values/controls";
import { ControlsScreen } from "~/components/controls/ControlsScreen";
import { useFormGeneration } from "~/lib/use-form-generation";
import { ProbingForm } from "~/components/controls/ProbingForm";
import { RouteError } from "~/components/RouteError";
import { controlsApi } from "~/server/api/controls-api.server";
import { controlsScreen, loadOrError, saveProbings, screenData } from "~/server/controls.server";
import { useCanConfigure } from "~/lib/user";
import { agentPageMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

const TITLE = "User Probing Guidelines";

/**
 * Smart probing of one trigger point (also at the legacy /{url_code}/ai-finetuning/smart-probe):
 * what the assistant asks about, and how. Unsaved texts show the Default's.
 */
export async function loader(args: LoaderFunctionArgs) {
  const screen = await controlsScreen(args);
  const { data, error } = await loadOrError(() =>
    controlsApi.listProbings(screen.api, screen.app.id, screen.choice.triggerPoint, AI_PROBING_TYPES),
  );
  const textOf = (type: (typeof AI_PROBING_TYPES)[number]) =>
    data?.ai_probings.find((entry) => entry.internal_name === type)?.prompt_input_raw ?? "";
  return json({
    ...screenData(screen),
    texts: { topics: textOf("topics"), topic_to_prob_mapping: textOf("topic_to_prob_mapping") },
    error,
  });
}

export async function action(args: ActionFunctionArgs) {
  return saveProbings(await controlsScreen(args), args.request);
}

export default function SmartProbing() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const readOnly = !useCanConfigure(data.client.id);
  const generation = useFormGeneration();
  return (
    <ControlsScreen title={TITLE} choice={data.choice} error={data.error}>
      <ProbingForm key={generation} texts={data.texts} lastResult={lastResult} readOnly={readOnly} />
    </ControlsScreen>
  );
}

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, TITLE);

export function ErrorBoundary() {
  return <RouteError />;
}
