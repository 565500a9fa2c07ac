import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { ConfirmStep } from "~/components/ConfirmStep";
import { ControlsScreen } from "~/components/controls/ControlsScreen";
import { useFormGeneration } from "~/lib/use-form-generation";
import { tableGeneration } from "~/components/editable-table/RowsForm";
import { RouteError } from "~/components/RouteError";
import { QuestionForm } from "~/components/testing/QuestionForm";
import { CsvTools, QuestionSearch, QuestionsTable } from "~/components/testing/QuestionsTable";
import { RunButtons, RunsTable } from "~/components/testing/Runs";
import * as s from "~/components/testing/testing.css";
import { EMPTY_QUESTION } from "~/lib/test-questions";
import { useCanConfigure } from "~/lib/user";
import {
  handleTestQuestionsAction,
  loadTestQuestions,
  type TestQuestionsActionData,
} from "~/server/test-questions.server";
import * as ui from "~/styles/ui.css";
import { agentPageMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

const TITLE = "Test Questions";

/**
 * An agent's test questions (beside Hallucination Accuracy & Quality Check): what its answers must
 * do, run in stage or production through the widget's own responder, and the latest runs.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadTestQuestions(args);
}

export async function action(args: ActionFunctionArgs) {
  return handleTestQuestionsAction(args);
}

/** A sub page's address, keeping the trigger point chosen at client level (and any `extra` params). */
function subPage(pathname: string, search: string, sub: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(extra);
  const triggerPoint = new URLSearchParams(search).get("trigger_point");
  if (triggerPoint) params.set("trigger_point", triggerPoint);
  return `${pathname.replace(/\/$/, "")}/${sub}${params.size ? `?${params}` : ""}`;
}

/** This address without one of its parameters (the question it asks, once answered or cancelled). */
function withoutParam({ pathname, search }: { pathname: string; search: string }, name: string) {
  const params = new URLSearchParams(search);
  params.delete(name);
  return `${pathname}${params.size ? `?${params}` : ""}`;
}

export default function TestQuestions() {
  const data = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as TestQuestionsActionData | undefined;
  const location = useLocation();
  const canConfigure = useCanConfigure(data.client.id);
  const generation = useFormGeneration();
  const questionPosted = posted && posted.intent !== "import" ? posted : undefined;
  const editingId = questionPosted?.intent === "update" ? questionPosted.id : (data.editing?.id ?? null);
  const values = questionPosted?.values ?? data.editing?.values ?? EMPTY_QUESTION;
  const loaded = questionPosted?.intent === "update" ? questionPosted.loaded : (data.editing?.values ?? null);
  const exportHref = subPage(location.pathname, location.search, "export", data.search ? { search: data.search } : {});

  return (
    <ControlsScreen
      title={TITLE}
      intro="Questions with what their answers must do: cite a source, contain a text, or come out a given way. Each change that can change answers runs them again in stage and production."
      choice={data.choice}
      error={null}
    >
      {/* The runs list is where a run page's "Runs" crumb leads (#runs). */}
      <section id="runs" className={s.section} aria-labelledby="runs-title">
        <h2 id="runs-title">Runs</h2>
        {canConfigure ? <RunButtons /> : null}
        <RunsTable runs={data.runs} runHref={(id) => subPage(location.pathname, location.search, `runs/${id}`)} />
      </section>
      <section className={s.section} aria-labelledby="questions-title">
        <h2 id="questions-title">Questions</h2>
        {canConfigure ? (
          <QuestionForm
            // A new form for each page arrived at (another question to edit, the reload after a
            // save); a refused save keeps the form, and what is being typed in it, as it is, unless
            // the question changed elsewhere meanwhile: then the form shows it as stored now.
            key={`${editingId ?? "new"}-${generation}-${tableGeneration(undefined, loaded)}`}
            editingId={editingId}
            values={values}
            loaded={loaded}
            fieldErrors={questionPosted?.fieldErrors ?? {}}
            formError={questionPosted?.formError ?? null}
          />
        ) : (
          <p className={ui.muted}>
            You can read these questions and their runs; changing them is for those who configure this client.
          </p>
        )}
        <CsvTools exportHref={exportHref} canConfigure={canConfigure} importErrors={posted?.importErrors ?? []} />
        <QuestionSearch search={data.search} />
        {data.deleting && canConfigure ? (
          <ConfirmStep
            label="Delete test question"
            question={
              <>
                Delete the test question “<bdi>{data.deleting.question}</bdi>”? It cannot be brought back.
              </>
            }
            confirm="Delete test question"
            intent="delete"
            cancelTo={withoutParam(location, "delete")}
            focusKey={data.deleting.id}
          >
            <input type="hidden" name="id" value={data.deleting.id} />
          </ConfirmStep>
        ) : null}
        <QuestionsTable
          questions={data.questions}
          paging={data.paging}
          search={data.search}
          canConfigure={canConfigure}
        />
      </section>
    </ControlsScreen>
  );
}

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, TITLE);

export function ErrorBoundary() {
  return <RouteError />;
}
