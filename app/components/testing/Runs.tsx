import { Form, Link, useNavigation } from "@remix-run/react";
import type { TestRun, TestRunSummary } from "@contract";
import { AnswerSources } from "~/components/AnswerSources";
import { noPassageHeldText } from "~/lib/quoted-words";
import { formatDateTime, formatTimeOfDay } from "~/lib/dates";
import { outcomeLabel } from "~/lib/test-questions";
import { environmentLabel, triggerLabel } from "~/lib/test-runs";
import * as ui from "~/styles/ui.css";
import * as s from "./testing.css";

type RunSummary = TestRunSummary;

const STATUS_TONES = { queued: "info", running: "warning", done: "success", failed: "error" } as const;

/** How long past its creation a run may start: more than a moment for a run held back by the one-run-a-minute rule. */
const holdMs = (run: Pick<RunSummary, "created_at" | "start_after">) =>
  Date.parse(run.start_after) - Date.parse(run.created_at);

/**
 * When a run started: its creation, or the end of its hold for a run held back by the
 * one-run-a-minute rule (or the moment someone brought it forward). A worker takes it within seconds.
 */
export const startedAt = (run: Pick<RunSummary, "created_at" | "start_after">) =>
  holdMs(run) > 0 ? run.start_after : run.created_at;

type StatusOf = Pick<RunSummary, "status" | "passed" | "failed" | "created_at" | "start_after">;

/**
 * A run's status as the chip says it. A held run says when it starts, read from the run alone, not
 * the clock, so the server's page and the browser's agree.
 */
function statusLabel(run: StatusOf) {
  if (run.status === "done") return run.failed ? `${run.failed} failed` : "all passed";
  if (run.status === "queued" && holdMs(run) >= 1000) return `queued, starts ${formatTimeOfDay(run.start_after)}`;
  return run.status;
}

export function RunStatus({ run }: { run: StatusOf }) {
  const tone = run.status === "done" && run.failed > 0 ? "error" : STATUS_TONES[run.status];
  const label = statusLabel(run);
  return (
    <span className={ui.chip[tone]} data-status={run.status}>
      {label}
    </span>
  );
}

/** The two run buttons of a screen whose user may change things. */
export function RunButtons() {
  const navigation = useNavigation();
  const running = navigation.state === "submitting" && navigation.formData?.get("intent") === "run";
  return (
    <Form method="post" className={ui.toolbar} aria-label="Run the test questions" preventScrollReset>
      <input type="hidden" name="intent" value="run" />
      <button type="submit" name="environment" value="stage" className={ui.button.primary} disabled={running}>
        Run in stage
      </button>
      <button type="submit" name="environment" value="prod" className={ui.button.secondary} disabled={running}>
        Run in production
      </button>
    </Form>
  );
}

/** The latest runs of the agent, each linking to its page. */
export function RunsTable({ runs, runHref }: { runs: RunSummary[]; runHref: (id: number) => string }) {
  if (!runs.length) {
    return (
      <p className={ui.muted}>
        No run yet. A run starts by itself after each change that can change answers, at most one a minute.
      </p>
    );
  }
  return (
    <div className={ui.tableScroll}>
      <table aria-label="Test runs">
        <thead>
          <tr>
            <th scope="col">Started (UTC)</th>
            <th scope="col">Environment</th>
            <th scope="col">Why</th>
            <th scope="col">Result</th>
            <th scope="col">Passed</th>
            <th scope="col">Failed</th>
            <th scope="col">
              <span className={ui.visuallyHidden}>Open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td>
                {run.status === "queued" ? <span className={ui.muted}>not yet</span> : formatDateTime(startedAt(run))}
              </td>
              <td>{environmentLabel(run.environment)}</td>
              <td>{triggerLabel(run.trigger)}</td>
              <td>
                <RunStatus run={run} />
              </td>
              <td>{run.passed}</td>
              <td>{run.failed}</td>
              <td>
                <Link to={runHref(run.id)}>View run {run.id}</Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every question's result in a run: passed or why not, the outcome, the answer and its sources. */
export function RunResults({ results }: { results: TestRun["results"] }) {
  if (!results.length) return <p className={ui.muted}>No results yet.</p>;
  return (
    <div className={ui.tableScroll}>
      <table aria-label="Results">
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">Result</th>
            <th scope="col">Outcome</th>
            <th scope="col">Answer</th>
            <th scope="col">Sources</th>
          </tr>
        </thead>
        <tbody>
          {results.map((result, index) => (
            <tr key={`${result.question_id ?? "gone"}-${index}`} data-passed={result.passed}>
              <td className={s.cellText}>{result.question}</td>
              <td>
                {result.passed ? (
                  <span className={ui.chip.success}>Passed</span>
                ) : (
                  <span className={ui.chip.error}>Failed: {result.reason}</span>
                )}
                {/* Often why it failed or got the fallback: the store holds nothing on what these words name. */}
                {result.lacked_words.length && (!result.passed || result.outcome === "fallback") ? (
                  <span className={s.lackedWords}>{noPassageHeldText(result.lacked_words)}</span>
                ) : null}
              </td>
              <td>{outcomeLabel(result.outcome)}</td>
              <td className={s.answer}>{result.answer}</td>
              <td>
                {result.sources.length ? (
                  <AnswerSources sources={result.sources} />
                ) : (
                  <span className={ui.muted}>None</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Questions that fail, each with why. */
function FailingList({ label, rows }: { label: string; rows: NonNullable<TestRun["changes"]>["newly_failing"] }) {
  return (
    <ul aria-label={label}>
      {rows.map((row) => (
        <li key={row.question_id}>
          <bdi>{row.question}</bdi> <span className={ui.muted}>({row.reason})</span>
        </li>
      ))}
    </ul>
  );
}

/** What changed since the previous run of the same agent and environment. */
export function RunChanges({ changes, runHref }: { changes: TestRun["changes"]; runHref: (id: number) => string }) {
  if (!changes) return <p className={ui.muted}>No earlier finished run of this environment to compare with.</p>;
  return (
    <>
      <p className={ui.muted}>
        Compared with <Link to={runHref(changes.previous_run_id)}>run {changes.previous_run_id}</Link>.
      </p>
      <h3>Newly failing ({changes.newly_failing.length})</h3>
      {changes.newly_failing.length ? (
        <FailingList label="Newly failing" rows={changes.newly_failing} />
      ) : (
        <p className={ui.muted}>None.</p>
      )}
      <h3>Newly passing ({changes.newly_passing.length})</h3>
      {changes.newly_passing.length ? (
        <ul aria-label="Newly passing">
          {changes.newly_passing.map((row) => (
            <li key={row.question_id}>{row.question}</li>
          ))}
        </ul>
      ) : (
        <p className={ui.muted}>None.</p>
      )}
      <h3>New questions failing ({changes.new_failing.length})</h3>
      <p className={ui.muted}>
        {changes.new_questions === 1
          ? "1 question was added since run"
          : `${changes.new_questions.toLocaleString("en-US")} questions were added since run`}{" "}
        {changes.previous_run_id}.
      </p>
      {changes.new_failing.length ? <FailingList label="New questions failing" rows={changes.new_failing} /> : null}
    </>
  );
}
