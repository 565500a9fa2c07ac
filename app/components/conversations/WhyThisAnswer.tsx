import { Form } from "@remix-run/react";
import type { AnswerTrace, ConversationMessage, TracePassage } from "@contract";
import { TRACE_CONTROL_LABELS } from "@contract/values/conversations";
import { headingPathText, isHttpLink, triggerPointLabel } from "~/lib/conversations";
import { formatDateTime } from "~/lib/dates";
import { outcomeLabel } from "~/lib/test-questions";
import * as ui from "~/styles/ui.css";
import * as s from "./conversations.css";

const PENALTY_TYPE_LABELS: Record<string, string> = {
  url_pattern: "URL pattern",
  html_weightage: "HTML pages",
  pdf_weightage: "PDF",
};

/** The page a passage was quoted from (a link, opening in a new tab) or the uploaded file's name. */
function PassageSource({ passage }: { passage: TracePassage }) {
  if (passage.url && isHttpLink(passage.url)) {
    return (
      <>
        <a href={passage.url} target="_blank" rel="noreferrer">
          <bdi>{passage.title || passage.url}</bdi>
        </a>
        <span className={s.url}>{passage.url}</span>
      </>
    );
  }
  return (
    <>
      <bdi>{passage.file_name ?? passage.url ?? passage.title}</bdi> <span className={ui.muted}>(file)</span>
    </>
  );
}

/**
 * "Lower" and "Exclude": a finetuning rule for this passage's page, made from the trace on the
 * server (the page is read from the recorded trace, not from what the browser sends).
 */
function FinetuneButtons({ answerId, passage, site }: { answerId: number; passage: TracePassage; site: string }) {
  const what = passage.title || passage.url || passage.file_name || `passage ${passage.rank}`;
  return (
    <Form method="post" className={s.inlineForm} preventScrollReset>
      <input type="hidden" name="intent" value="finetune-page" />
      <input type="hidden" name="message_id" value={answerId} />
      <input type="hidden" name="rank" value={passage.rank} />
      <button type="submit" name="weight" value="lower" className={ui.button.secondary}>
        Lower
        <span className={ui.visuallyHidden}>
          {" "}
          <bdi>{what}</bdi> for {site}
        </span>
      </button>
      <button type="submit" name="weight" value="exclude" className={ui.button.secondary}>
        Exclude
        <span className={ui.visuallyHidden}>
          {" "}
          <bdi>{what}</bdi> for {site}
        </span>
      </button>
    </Form>
  );
}

function PassagesTable({
  answerId,
  trace,
  site,
  canCorrect,
}: {
  answerId: number;
  trace: AnswerTrace;
  site: string;
  canCorrect: boolean;
}) {
  if (!trace.passages.length) return <p>Retrieval found no passage for this question.</p>;
  return (
    <div className={ui.tableScroll} tabIndex={0}>
      <table aria-label="Passages retrieved">
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Page or file</th>
            <th scope="col">Heading path</th>
            <th scope="col">Indexed (UTC)</th>
            <th scope="col">Score</th>
            <th scope="col">Penalties</th>
            <th scope="col">Quotable</th>
            <th scope="col">Used</th>
            {canCorrect ? <th scope="col">For {site}</th> : null}
          </tr>
        </thead>
        <tbody>
          {trace.passages.map((passage) => (
            <tr key={passage.rank} data-rank={passage.rank}>
              <td className={s.number}>{passage.rank}</td>
              <td className={s.pageCell}>
                <PassageSource passage={passage} />
                <details>
                  <summary className={ui.muted}>Passage</summary>
                  <p className={s.passageText}>{passage.text}</p>
                </details>
              </td>
              <td>
                {passage.heading_path.length ? (
                  headingPathText(passage.heading_path)
                ) : (
                  <span className={ui.muted}>None</span>
                )}
              </td>
              <td className={s.when}>
                {passage.indexed_at ? (
                  <time dateTime={passage.indexed_at}>{formatDateTime(passage.indexed_at)}</time>
                ) : (
                  "Unknown"
                )}
              </td>
              <td className={s.number}>{passage.score}</td>
              <td>
                {passage.penalties.length ? (
                  <ul className={s.plainList}>
                    {passage.penalties.map((penalty) => (
                      <li key={`${penalty.type} ${penalty.pattern}`}>
                        {penalty.penalty} ({PENALTY_TYPE_LABELS[penalty.type] ?? penalty.type} “{penalty.pattern}”)
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className={ui.muted}>None</span>
                )}
              </td>
              <td>
                {passage.passed ? (
                  <span className={ui.chip.success}>Quotable</span>
                ) : (
                  <span className={ui.chip.default}>Holds too little</span>
                )}
              </td>
              <td>{passage.used ? "Used" : <span className={ui.muted}>Not used</span>}</td>
              {canCorrect ? (
                <td>
                  <FinetuneButtons answerId={answerId} passage={passage} site={site} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * "Why this answer": the trace recorded when the answer was given, never worked out again, so the
 * operator reads what the visitor got: the passages retrieval ranked, the threshold in force, the
 * controls that fired and the outcome. A `<details>`, so it opens without JavaScript.
 */
export function WhyThisAnswer({
  answer,
  triggerPoint,
  canCorrect,
}: {
  answer: ConversationMessage;
  triggerPoint: string;
  canCorrect: boolean;
}) {
  const { trace } = answer;
  const site = triggerPointLabel(triggerPoint);
  return (
    <details className={s.disclosure}>
      <summary className={s.disclosureSummary}>Why this answer</summary>
      {trace ? (
        <div className={s.disclosureBody}>
          <p>
            Outcome: <strong>{outcomeLabel(answer.outcome)}</strong>.{" "}
            {trace.model
              ? "A language model wrote the answer from the passages used."
              : "The answer quotes the passages used."}
          </p>
          <p>
            {trace.confidence === undefined ? (
              <>
                Threshold in force: <strong>{trace.threshold}</strong>; the best passage scored{" "}
                <strong>{trace.top_score}</strong>.
              </>
            ) : (
              <>
                Estimated chance that the answer is right: <strong>{trace.confidence}</strong>, against the Minimum
                Retrieval Confidence in force, <strong>{trace.threshold}</strong>
                {trace.confidence > 0 && trace.confidence >= trace.threshold
                  ? ": it reaches it."
                  : trace.confidence > 0
                    ? ": below it, so the fallback."
                    : ": no passage held enough of the question to quote."}
              </>
            )}
          </p>
          <div>
            <h3>Controls that fired</h3>
            {trace.controls.length ? (
              <ul className={s.plainList}>
                {trace.controls.map((control, index) => (
                  <li key={`${control.type} ${index}`}>
                    {TRACE_CONTROL_LABELS[control.type]}: {control.name}
                  </li>
                ))}
              </ul>
            ) : (
              <p className={ui.muted}>None fired.</p>
            )}
          </div>
          <h3>Passages retrieved</h3>
          <PassagesTable answerId={answer.id} trace={trace} site={site} canCorrect={canCorrect} />
        </div>
      ) : (
        <p className={s.disclosureBody}>
          No trace was recorded for this answer: it was given before answers kept their traces.
        </p>
      )}
    </details>
  );
}
