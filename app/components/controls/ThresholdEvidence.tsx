import { Link } from "@remix-run/react";
import type { ThresholdEvidence } from "@contract";
import {
  evenlySpaced,
  isTodayValue,
  replayedCount,
  replayedWhat,
  thresholdLabel,
  todayBetween,
} from "~/lib/threshold-evidence";
import * as ui from "~/styles/ui.css";
import * as s from "./controls.css";

/*
 * The Quality Check's evidence: what each Minimum Retrieval Confidence would have done to the
 * agent's latest test results and rated answers (docs/decisions/029). A chart drawn as SVG on the
 * server and the table it is drawn from, so both show without JavaScript; the table is the data.
 */

type Point = ThresholdEvidence["points"][number];
interface Series {
  key: "answered" | "fallback" | "passed";
  label: string;
  color: string;
  dash?: string;
}

// Told apart by their dashes as well as their colours.
const SERIES: Series[] = [
  { key: "answered", label: "Answered", color: "#2f54eb" },
  { key: "fallback", label: "Fallback", color: "#8a5a00", dash: "6 4" },
  { key: "passed", label: "Passed", color: "#1f7a3a", dash: "2 3" },
];

export function ThresholdEvidenceSection({
  evidence,
  error,
  testQuestionsHref,
}: {
  evidence: ThresholdEvidence | null;
  error: string | null;
  testQuestionsHref: string;
}) {
  return (
    <section aria-labelledby="evidence-title" className={s.evidence}>
      <h2 id="evidence-title">Evidence for the threshold</h2>
      {error || !evidence ? (
        <p role="alert" className={ui.fieldError}>
          {error ?? "The evidence could not be loaded."}
        </p>
      ) : replayedCount(evidence) === 0 ? (
        <NothingToReplay testQuestionsHref={testQuestionsHref} />
      ) : (
        <>
          <p className={`${ui.muted} ${s.intro}`}>
            What each Minimum Retrieval Confidence would have done to this agent&apos;s questions, replayed on{" "}
            {replayedWhat(evidence)}: the latest finished test run in stage and in production, and the latest answers
            visitors rated.
          </p>
          <EvidenceChart evidence={evidence} />
          <EvidenceTable evidence={evidence} />
          <p className={`${ui.muted} ${s.evidenceNote}`}>
            A question is answered at a value when the assistant&apos;s estimated chance that its answer is right
            reached that value; otherwise it gets the fallback. A test question passes when it gets what it expects; one
            that expects an answer but got the fallback when it ran counts as not passed at every value, since its
            answer was never checked. A thumbs up passes when answered, a thumbs down when given the fallback. Canned
            answers (No-Go Topics) are left out: no threshold changes them.
          </p>
        </>
      )}
    </section>
  );
}

function NothingToReplay({ testQuestionsHref }: { testQuestionsHref: string }) {
  return (
    <p className={ui.muted}>
      Nothing to replay yet. <Link to={testQuestionsHref}>Run the test questions</Link> in stage or production (or wait
      for visitors to rate answers) to see how many questions each value would answer, give the fallback, and pass.
    </p>
  );
}

function EvidenceTable({ evidence }: { evidence: ThresholdEvidence }) {
  const total = replayedCount(evidence);
  const between = todayBetween(evidence);
  return (
    <>
      <div className={ui.tableScroll} tabIndex={0} role="region" aria-label="Evidence figures">
        <table aria-label="Evidence at each Minimum Retrieval Confidence">
          <thead>
            <tr>
              <th scope="col">Minimum Retrieval Confidence</th>
              <th scope="col">Answered</th>
              <th scope="col">Fallback</th>
              <th scope="col">Pass</th>
            </tr>
          </thead>
          <tbody>
            {evidence.points.map((point) => {
              const today = isTodayValue(point.threshold, evidence.current);
              return (
                <tr key={point.threshold} className={today ? s.todayRow : undefined}>
                  <th scope="row">
                    {thresholdLabel(point.threshold)}
                    {today ? <strong className={s.todayMark}> (today)</strong> : null}
                  </th>
                  <td>{point.answered}</td>
                  <td>{point.fallback}</td>
                  <td>
                    {point.passed} of {total}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {between ? <p className={s.evidenceNote}>{between}</p> : null}
    </>
  );
}

function EvidenceChart({ evidence }: { evidence: ThresholdEvidence }) {
  const width = 640;
  const height = 200;
  // Room above the plot for the "today" label, below it for the values.
  const [top, right, bottom, left] = [26, 16, 30, 36];
  const points = evidence.points;
  const first = points[0].threshold;
  const last = points[points.length - 1].threshold;
  const max = Math.max(1, replayedCount(evidence));
  const x = evenlySpaced(
    points.map((point) => point.threshold),
    left,
    width - right,
  );
  const y = (value: number) => top + (1 - value / max) * (height - top - bottom);
  const today = points.find((point) => isTodayValue(point.threshold, evidence.current));
  const label =
    "Answered, fallback and passed at each Minimum Retrieval Confidence " +
    `from ${thresholdLabel(first)} to ${thresholdLabel(last)}, over ${replayedWhat(evidence)}. Today's value is ${evidence.current}` +
    (today ? `: ${today.answered} answered, ${today.fallback} fallback, ${today.passed} passed.` : ".") +
    " The table below gives every figure.";
  return (
    <figure className={s.evidenceFigure}>
      <svg className={s.evidenceSvg} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <line x1={left} x2={width - right} y1={height - bottom} y2={height - bottom} stroke="#cbd5e1" />
        <text x={left - 6} y={top + 4} textAnchor="end" fontSize="11" fill="#5b6375">
          {max}
        </text>
        <text x={left - 6} y={height - bottom} textAnchor="end" fontSize="11" fill="#5b6375">
          0
        </text>
        {points.map((point) => (
          <text
            key={point.threshold}
            x={x(point.threshold)}
            y={height - 10}
            textAnchor="middle"
            fontSize="11"
            fill="#5b6375"
          >
            {thresholdLabel(point.threshold)}
          </text>
        ))}
        <line
          x1={x(evidence.current)}
          x2={x(evidence.current)}
          y1={top - 8}
          y2={height - bottom}
          stroke="#1f2430"
          strokeDasharray="3 3"
        />
        <text x={x(evidence.current)} y={top - 12} textAnchor="middle" fontSize="11" fill="#1f2430">
          today {evidence.current}
        </text>
        {SERIES.map((series) => (
          <SeriesLine key={series.key} series={series} points={points} x={x} y={y} />
        ))}
      </svg>
      <ul className={s.legend}>
        {SERIES.map((series) => (
          <li key={series.key}>
            <svg width="24" height="10" aria-hidden="true">
              <line x1="0" x2="24" y1="5" y2="5" stroke={series.color} strokeWidth="2" strokeDasharray={series.dash} />
            </svg>
            {series.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}

function SeriesLine({
  series,
  points,
  x,
  y,
}: {
  series: Series;
  points: Point[];
  x: (t: number) => number;
  y: (v: number) => number;
}) {
  return (
    <g>
      <polyline
        fill="none"
        stroke={series.color}
        strokeWidth="2"
        strokeDasharray={series.dash}
        points={points.map((point) => `${x(point.threshold)},${y(point[series.key])}`).join(" ")}
      />
      {points.map((point) => (
        <circle key={point.threshold} cx={x(point.threshold)} cy={y(point[series.key])} r="3" fill={series.color}>
          <title>{`${thresholdLabel(point.threshold)}: ${point[series.key]} ${series.label.toLowerCase()}`}</title>
        </circle>
      ))}
    </g>
  );
}
