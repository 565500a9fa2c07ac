import type { SubmissionResult } from "@conform-to/react";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CONTROL_HELP_TEXTS, CONTROL_LABELS, QUALITY_CHECK } from "@contract/values/controls";
import { ControlsScreen } from "~/components/controls/ControlsScreen";
import { useFormGeneration } from "~/lib/use-form-generation";
import { QualityCheckForm } from "~/components/controls/QualityCheckForm";
import { ThresholdEvidenceSection } from "~/components/controls/ThresholdEvidence";
import { RouteError } from "~/components/RouteError";
import { controlsScreen, loadQualityCheck, saveQualityCheck } from "~/server/controls.server";
import { useCanConfigure } from "~/lib/user";
import { agentPageMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

const TITLE = CONTROL_LABELS[QUALITY_CHECK];

/**
 * Hallucination Accuracy & Quality Check of one trigger point (the Default's or the built-in settings
 * until saved), with the evidence for choosing its Minimum Retrieval Confidence.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadQualityCheck(await controlsScreen(args));
}

export async function action(args: ActionFunctionArgs) {
  return saveQualityCheck(await controlsScreen(args), args.request);
}

export default function QualityCheck() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const readOnly = !useCanConfigure(data.client.id);
  const generation = useFormGeneration();
  return (
    <>
      <ControlsScreen title={TITLE} intro={CONTROL_HELP_TEXTS[QUALITY_CHECK]} choice={data.choice} error={data.error}>
        <QualityCheckForm key={generation} settings={data.settings} lastResult={lastResult} readOnly={readOnly} />
      </ControlsScreen>
      <ThresholdEvidenceSection
        evidence={data.evidence}
        error={data.evidenceError}
        testQuestionsHref={data.testQuestionsHref}
      />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, TITLE);

export function ErrorBoundary() {
  return <RouteError />;
}
