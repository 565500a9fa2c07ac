import type { SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AI_PERSONALITY } from "@contract/values/controls";
import { ControlsScreen } from "~/components/controls/ControlsScreen";
import { useFormGeneration } from "~/lib/use-form-generation";
import { PersonalityForm } from "~/components/controls/PersonalityForm";
import { RouteError } from "~/components/RouteError";
import { NOT_SAVED_YET } from "~/lib/controls";
import { controlsApi } from "~/server/api/controls-api.server";
import { controlsScreen, loadOrError, savePersonality, screenData } from "~/server/controls.server";
import { useCanConfigure } from "~/lib/user";
import { agentPageMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/**
 * AI Personality (also at /{url_code}/controls/ai-personality and the legacy
 * /{url_code}/ai-finetuning/ai-personality). What the API answers is what the assistant uses:
 * the trigger point's own text, else the Default one, else the built-in default of the client type.
 */
export async function loader(args: LoaderFunctionArgs) {
  const screen = await controlsScreen(args);
  const { data, error } = await loadOrError(() =>
    controlsApi.list(screen.api, screen.app.id, screen.choice.triggerPoint, [AI_PERSONALITY]),
  );
  const personality = data?.controls.find((control) => control.internal_name === AI_PERSONALITY);
  return json({
    ...screenData(screen),
    text: personality?.prompt_input_raw ?? "",
    saved: personality?.id != null,
    error,
  });
}

export async function action(args: ActionFunctionArgs) {
  return savePersonality(await controlsScreen(args), args.request);
}

export default function AiPersonality() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const readOnly = !useCanConfigure(data.client.id);
  const generation = useFormGeneration();
  return (
    <ControlsScreen
      title="AI Personality"
      intro={data.saved ? undefined : NOT_SAVED_YET}
      choice={data.choice}
      error={data.error}
    >
      <PersonalityForm key={generation} text={data.text} lastResult={lastResult} readOnly={readOnly} />
    </ControlsScreen>
  );
}

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, "AI Personality");

export function ErrorBoundary() {
  return <RouteError />;
}
