import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { RouteError } from "~/components/RouteError";
import { RunChanges, RunResults, RunStatus, startedAt } from "~/components/testing/Runs";
import * as s from "~/components/testing/testing.css";
import { usePolling } from "~/components/usePolling";
import { formatDateTimeUtc } from "~/lib/dates";
import { countOf } from "~/lib/format";
import { environmentLabel, triggerLabel } from "~/lib/test-runs";
import { loadTestRun } from "~/server/test-questions.server";
import * as ui from "~/styles/ui.css";
import { agentPageMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** One run of an agent's test questions: its progress, every result, and what changed since the run before. */
export async function loader(args: LoaderFunctionArgs) {
  return loadTestRun(args);
}

export default function TestRunPage() {
  const { run } = useLoaderData<typeof loader>();
  const location = useLocation();
  const finished = run.status === "done" || run.status === "failed";
  // With JavaScript the page refreshes its data while the run goes on; without, the browser reloads it.
  usePolling(!finished);
  const screen = location.pathname.replace(/\/runs\/[^/]+\/?$/, "");
  const runHref = (id: number) => `${screen}/runs/${id}${location.search}`;
  const asked = run.passed + run.failed;
  return (
    <section aria-labelledby="run-title">
      {finished ? null : (
        <noscript>
          <meta httpEquiv="refresh" content="3" />
        </noscript>
      )}
      <p>
        <Link to={`${screen}${location.search}`}>← Test Questions</Link>
      </p>
      <h1 id="run-title">Test run {run.id}</h1>
      <dl className={s.facts}>
        <div>
          <dt className={ui.label}>Environment</dt>
          <dd>{environmentLabel(run.environment)}</dd>
        </div>
        <div>
          <dt className={ui.label}>Why it ran</dt>
          <dd>{triggerLabel(run.trigger)}</dd>
        </div>
        <div>
          {run.status === "queued" ? (
            <>
              <dt className={ui.label}>Queued</dt>
              <dd>{formatDateTimeUtc(run.created_at)}</dd>
            </>
          ) : (
            <>
              <dt className={ui.label}>Started</dt>
              <dd>{formatDateTimeUtc(startedAt(run))}</dd>
            </>
          )}
        </div>
        <div>
          <dt className={ui.label}>Status</dt>
          <dd>
            <RunStatus run={run} />
          </dd>
        </div>
      </dl>
      <p aria-live="polite">
        <progress className={s.progress} max={Math.max(run.total, 1)} value={asked} aria-label="Questions asked" />{" "}
        {asked} of {countOf(run.total, "question")} asked: {run.passed} passed, {run.failed} failed.
      </p>
      {run.error ? (
        <p role="alert" className={ui.fieldError}>
          The run stopped: {run.error}
        </p>
      ) : null}
      {run.status === "done" ? (
        <section className={s.section} aria-labelledby="changes-title">
          <h2 id="changes-title">Since the previous run</h2>
          <RunChanges changes={run.changes} runHref={runHref} />
        </section>
      ) : null}
      <section className={s.section} aria-labelledby="results-title">
        <h2 id="results-title">Results</h2>
        <RunResults results={run.results} />
      </section>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = (args) =>
  agentPageMeta(args, args.data ? `Test run ${args.data.run.id}` : "Test run");

export function ErrorBoundary() {
  return <RouteError />;
}
