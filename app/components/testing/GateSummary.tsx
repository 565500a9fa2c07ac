import type { TestGate, TestRunSummary } from "@contract";
import { formatDateTimeUtc } from "~/lib/dates";
import * as ui from "~/styles/ui.css";
import { environmentLabel, triggerLabel } from "~/lib/test-runs";

const runLine = (environment: "stage" | "prod", run: TestRunSummary | null) =>
  run
    ? `${environmentLabel(environment)}: ${run.passed} passed, ${run.failed} failed (run ${run.id}, ${formatDateTimeUtc(run.finished_at ?? run.created_at)})`
    : `${environmentLabel(environment)}: no finished run yet`;

/** A run still to finish: what it was queued for, and that its environment's figures above come from before it. */
function pendingLine(run: TestRunSummary, hasFinished: boolean) {
  const state = run.status === "running" ? "is running" : "is waiting to start";
  const why = run.trigger === "manual" ? "" : ` (${triggerLabel(run.trigger)})`;
  const name = run.environment === "prod" ? "production" : "stage";
  return hasFinished
    ? `A newer ${name} run, run ${run.id}${why}, ${state}: the ${name} figures above are from before it.`
    : `${environmentLabel(run.environment)}'s first run, run ${run.id}${why}, ${state}.`;
}

/**
 * What a change that reaches production would do to the agent's test questions: the last stage
 * run beside the last production run, and the questions stage fails that production passes.
 */
export function GateSummary({ gate, agentLabel }: { gate: TestGate; agentLabel?: string }) {
  const failing = gate.stage_fails_prod_passes;
  return (
    <div data-testid="test-gate">
      <p>
        <strong>Test questions{agentLabel ? ` of ${agentLabel}` : ""}</strong>
      </p>
      <ul>
        <li>{runLine("stage", gate.stage)}</li>
        <li>{runLine("prod", gate.prod)}</li>
      </ul>
      {gate.stage_pending ? (
        <p data-testid="stage-pending">{pendingLine(gate.stage_pending, gate.stage !== null)}</p>
      ) : null}
      {gate.prod_pending ? (
        <p data-testid="prod-pending">{pendingLine(gate.prod_pending, gate.prod !== null)}</p>
      ) : null}
      {failing.length ? (
        <>
          <p role="alert" className={ui.fieldError}>
            Stage fails {failing.length === 1 ? "1 question" : `${failing.length} questions`} that production passes:
          </p>
          <ul aria-label="Failing in stage, passing in production">
            {failing.slice(0, 20).map((row) => (
              <li key={row.question_id}>
                {row.question} <span className={ui.muted}>({row.reason})</span>
              </li>
            ))}
            {failing.length > 20 ? <li>… and {failing.length - 20} more</li> : null}
          </ul>
        </>
      ) : null}
    </div>
  );
}
