import { Form, Link } from "@remix-run/react";
import { Fragment } from "react";
import type { AnswerTrace, ConversationMessage, TraceLeftOut, TracePassage } from "@contract";
import { TRACE_CONTROL_LABELS } from "@contract/values/conversations";
import { DEFAULT_TRIGGER_POINT_LABEL } from "@contract/values/controls";
import {
  chanceVerdict,
  fallbackReasonOf,
  howTheAnswerCame,
  lackedWordsText,
  leftOutText,
  moreLeftOutText,
  noGoTopicOf,
  noPassagesText,
  partChanceVerdict,
  partVerdict,
  PASSAGE_USES,
  passageUse,
  shareText,
} from "~/lib/answer-trace";
import {
  CORRECTION_ANCHORS,
  headingPathText,
  OUTCOME_TONES,
  PAGE_PENALTIES,
  pageRuleOf,
  triggerPointLabel,
} from "~/lib/conversations";
import { formatDateTime } from "~/lib/dates";
import { outcomeLabel } from "~/lib/test-questions";
import * as ui from "~/styles/ui.css";
import * as s from "./conversations.css";
import { readableAddress } from "~/lib/readable-address";
import { isHttpLink } from "~/lib/links";

const PENALTY_TYPE_LABELS: Record<string, string> = {
  url_pattern: "URL pattern",
  html_weightage: "HTML pages",
  pdf_weightage: "PDF",
};

/**
 * The page a passage was quoted from (a link, opening in a new tab) or the uploaded file's name,
 * linking to its chunks on the Files screen (`files`) while the file is there.
 */
function PassageSource({ passage, files }: { passage: TracePassage; files: string }) {
  if (passage.url && isHttpLink(passage.url)) {
    return (
      <>
        <a href={passage.url} target="_blank" rel="noreferrer">
          <bdi>{passage.title || passage.url}</bdi>
        </a>
        <span className={s.url}>{readableAddress(passage.url)}</span>
      </>
    );
  }
  const name = <bdi>{passage.file_name ?? passage.url ?? passage.title}</bdi>;
  return (
    <>
      {passage.file_id ? <Link to={`${files}/${passage.file_id}/chunks`}>{name}</Link> : name}{" "}
      <span className={ui.muted}>{passage.file_deleted ? "(file, deleted since)" : "(file)"}</span>
    </>
  );
}

/**
 * When the version quoted was indexed, under its page: the operator checks it against the page as
 * it reads now, and a column of its own pushed the table's last columns out of a 1,280-pixel window.
 */
function IndexedAt({ passage }: { passage: TracePassage }) {
  return (
    <span className={s.indexedAt}>
      Indexed{" "}
      {passage.indexed_at ? (
        <time dateTime={passage.indexed_at}>{formatDateTime(passage.indexed_at)}</time>
      ) : (
        "at an unknown time"
      )}{" "}
      (UTC)
    </span>
  );
}

const WEIGHT_LABELS = { lower: "Lower", exclude: "Exclude" } as const;

/** The page's penalties in AI Finetuning now, by the pattern its buttons write (`pageRulesNow`). */
export type PageRules = Record<string, number>;

/** What a page's rule does now, in words beside its buttons; null when it has none. */
function ruleNowText(penalty: number | undefined) {
  if (penalty === undefined) return null;
  if (penalty === PAGE_PENALTIES.exclude) return "Excluded now";
  if (penalty === PAGE_PENALTIES.lower) return "Lowered now";
  return `Penalty ${penalty} now`;
}

/**
 * "Lower" and "Exclude": a finetuning rule for this passage's page, made from the trace on the
 * server (the page is read from the recorded trace, not from what the browser sends). The trace is
 * what was, so a rule made since is said beside the buttons, and the one it already is goes.
 */
function FinetuneButtons({
  answerId,
  passage,
  site,
  triggerPoint,
  pageRules,
}: {
  answerId: number;
  passage: TracePassage;
  site: string;
  triggerPoint: string;
  pageRules: PageRules;
}) {
  const what = passage.title || passage.url || passage.file_name || `passage ${passage.rank}`;
  const now = pageRules[pageRuleOf(passage, triggerPoint, "lower").pattern ?? ""];
  const said = ruleNowText(now);
  const weights = (["lower", "exclude"] as const).filter((weight) => PAGE_PENALTIES[weight] !== now);
  return (
    <Form method="post" className={s.inlineForm} preventScrollReset replace>
      <input type="hidden" name="intent" value="finetune-page" />
      <input type="hidden" name="message_id" value={answerId} />
      <input type="hidden" name="rank" value={passage.rank} />
      {said ? <span className={ui.muted}>{said}</span> : null}
      {weights.map((weight) => (
        <button
          key={weight}
          type="submit"
          name="weight"
          value={weight}
          id={CORRECTION_ANCHORS.finetune(answerId, passage.rank, weight)}
          className={ui.button.secondary}
        >
          {WEIGHT_LABELS[weight]}
          <span className={ui.visuallyHidden}>
            {" "}
            <bdi>{what}</bdi> for {site}
          </span>
        </button>
      ))}
    </Form>
  );
}

/** What the answer did with a passage: only one its text was drawn from reads "Used". */
function PassageUse({ passage }: { passage: TracePassage }) {
  const use = passageUse(passage);
  return use === PASSAGE_USES.notUsed || use === PASSAGE_USES.listedOnly ? (
    <span className={ui.muted}>{use}</span>
  ) : (
    use
  );
}

function PassagesTable({
  answerId,
  trace,
  site,
  triggerPoint,
  canCorrect,
  pageRules,
  files,
}: {
  answerId: number;
  trace: AnswerTrace;
  site: string;
  triggerPoint: string;
  canCorrect: boolean;
  pageRules: PageRules;
  /** The Files screen, whose `{id}/chunks` shows a file's passages. */
  files: string;
}) {
  if (!trace.passages.length) return <p>{noPassagesText(trace)}</p>;
  return (
    <div className={ui.tableScroll} tabIndex={0}>
      <table
        aria-label="Passages retrieved"
        className={canCorrect ? `${ui.denseTable} ${ui.lastColumnInView}` : ui.denseTable}
      >
        <thead>
          <tr>
            <th scope="col">Rank</th>
            {trace.parts ? <th scope="col">Question</th> : null}
            <th scope="col">Page or file</th>
            <th scope="col">Heading path</th>
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
              {trace.parts ? <td className={s.number}>{passage.part}</td> : null}
              <td className={s.pageCell}>
                <PassageSource passage={passage} files={files} />
                <IndexedAt passage={passage} />
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
              <td className={s.number}>
                {passage.score}
                {passage.holds?.length ? (
                  <span className={s.heldWords}>
                    <span className={ui.visuallyHidden}>Holds </span>
                    <bdi>{passage.holds.join(", ")}</bdi>
                  </span>
                ) : null}
              </td>
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
              <td>
                <PassageUse passage={passage} />
              </td>
              {canCorrect ? (
                <td>
                  <FinetuneButtons
                    answerId={answerId}
                    passage={passage}
                    site={site}
                    triggerPoint={triggerPoint}
                    pageRules={pageRules}
                  />
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
 * Beside an answer's outcome, the other outcomes its questions had when it asked several: the list
 * counts the answer under each (a fallback among answered questions is found by the fallback
 * filter), and the transcript says so where the list's counts are read, not only in the trace.
 */
export function PartOutcomeChips({ answer }: { answer: Pick<ConversationMessage, "outcome" | "trace"> }) {
  const parts = answer.trace?.parts ?? [];
  const others = [...new Set(parts.map((part) => part.outcome))].filter((outcome) => outcome !== answer.outcome);
  return others.map((outcome) => (
    <span key={outcome} className={ui.chip[OUTCOME_TONES[outcome]]} data-outcome={outcome}>
      {parts.filter((part) => part.outcome === outcome).length} of {parts.length} questions: {outcomeLabel(outcome)}
    </span>
  ));
}

export type TopicScreens = Partial<Record<AnswerTrace["controls"][number]["type"], [own: string, ofDefault: string]>>;

/** Where what a trace names is set: the trigger point's Quality Check and knowledge, the client's AI Finetuning and Files. */
export interface TraceLinks {
  qualityCheck: string;
  /**
   * Where a topic that fired is set, by its kind (No-Go, Sensitive): the trigger point's screen,
   * then Default's, for a topic its trace says is Default's.
   */
  topicScreens: TopicScreens;
  finetuning: string;
  knowledgeStore: string;
  /** Where files are tagged for an environment, and a file's chunks are read (`{files}/{id}/chunks`). */
  files: string;
}

/**
 * The question's key words as retrieval weighed them: each word's share of the question (what a
 * passage holding it adds to its score) and how many passages held it, so a word the store lacks
 * stands out, with what the operator can do about it (the link, to those who may add pages).
 */
function KeyWords({ trace, links, canCorrect }: { trace: AnswerTrace; links: TraceLinks; canCorrect: boolean }) {
  const keyWords = trace.key_words;
  if (!keyWords?.length) return null;
  const lacked = lackedWordsText(trace);
  return (
    <div>
      <h3>Key words of the question</h3>
      <p className={ui.muted}>
        Each word weighs by how rare it is in the knowledge store; a passage's score is the share of this weight it
        holds.
      </p>
      <div className={`${ui.tableScroll} ${s.fitContent}`} tabIndex={0}>
        <table aria-label="Key words of the question" className={ui.denseTable}>
          <thead>
            <tr>
              {trace.parts ? <th scope="col">Question</th> : null}
              <th scope="col">Word</th>
              <th scope="col">Share of the question</th>
              <th scope="col">Passages holding it</th>
            </tr>
          </thead>
          <tbody>
            {keyWords.map((key, index) => (
              <tr key={index}>
                {trace.parts ? <td className={s.number}>{key.part}</td> : null}
                <td>
                  <bdi>{key.word}</bdi>
                  {key.context ? <span className={ui.muted}> (of the question before)</span> : null}
                  {key.corrected ? <span className={ui.muted}> (read as a stored word it nearly is)</span> : null}
                </td>
                <td className={s.number}>{shareText(key.weight)}</td>
                <td className={s.number}>
                  {key.passages ? key.passages : <span className={ui.chip.warning}>None</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {lacked ? (
        <p>
          {lacked} {canCorrect ? <Link to={links.knowledgeStore}>Open the AI Knowledge Store</Link> : null}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The chance the quality check estimated, against the threshold in force (a trace recorded before
 * the chance was kept shows the best passage's score, which the threshold was compared with then).
 * None for a canned answer: retrieval did not run.
 */
function Chance({ trace, links }: { trace: AnswerTrace; links: TraceLinks }) {
  // Several questions: each has its chance, said with it.
  if (noGoTopicOf(trace) !== null || trace.parts) return null;
  if (trace.confidence === undefined)
    return (
      <p>
        Threshold in force: <strong>{trace.threshold}</strong>; the best passage scored{" "}
        <strong>{trace.top_score}</strong>.
      </p>
    );
  return (
    <p>
      Estimated chance that the answer is right: <strong>{trace.confidence}</strong>, against the{" "}
      <Link to={links.qualityCheck}>Minimum Retrieval Confidence</Link> in force, <strong>{trace.threshold}</strong>:{" "}
      {chanceVerdict(trace)}
    </p>
  );
}

/**
 * How one question of several came out, as a single question's trace says it: why nothing answered
 * it (with Files to tag the file it needs, for those who may), and its chance against the threshold.
 */
function PartOutcome({
  part,
  threshold,
  links,
  canCorrect,
}: {
  part: NonNullable<AnswerTrace["parts"]>[number];
  threshold: number;
  links: TraceLinks;
  canCorrect: boolean;
}) {
  const verdict = partVerdict(part);
  const chance = partChanceVerdict(part, threshold);
  const notTagged = part.fallback_reason === "file_not_tagged" && Boolean(part.files_not_tagged?.length);
  return (
    <>
      “<bdi>{part.question}</bdi>”: {outcomeLabel(part.outcome)}
      {verdict ? `, ${verdict}` : "."}
      {canCorrect && notTagged ? (
        <>
          {" "}
          <Link to={links.files}>Open Files</Link>
        </>
      ) : null}
      {chance !== null ? (
        <>
          {" "}
          Estimated chance that it is right: <strong>{part.confidence}</strong>, against the{" "}
          <Link to={links.qualityCheck}>Minimum Retrieval Confidence</Link> in force, <strong>{threshold}</strong>
          {chance ? `: ${chance}` : "."}
        </>
      ) : null}
    </>
  );
}

/** The pages an AI Finetuning rule left out of the answer's candidates: links to web pages, a file by its name. */
function LeftOutPages({ rule }: { rule: TraceLeftOut }) {
  return (
    <span className={ui.muted}>
      {" "}
      Pages it left out that hold the question's key words:{" "}
      {rule.pages.map((page, index) => (
        <Fragment key={page}>
          {index ? ", " : null}
          {isHttpLink(page) ? (
            <a href={page} target="_blank" rel="noreferrer">
              {page}
            </a>
          ) : (
            page
          )}
        </Fragment>
      ))}
      {rule.more_pages ? " and more" : null}.
    </span>
  );
}

/** A control that fired, linked to the screen it is set on where it has one. */
function ControlFired({ control, links }: { control: AnswerTrace["controls"][number]; links: TraceLinks }) {
  const text = (
    <>
      {TRACE_CONTROL_LABELS[control.type]}: <bdi>{control.name}</bdi>
      {control.from_default ? `, set under ${DEFAULT_TRIGGER_POINT_LABEL}` : null}
    </>
  );
  const to = links.topicScreens[control.type]?.[control.from_default ? 1 : 0];
  return to ? <Link to={to}>{text}</Link> : text;
}

/**
 * The controls that shaped the answer, and the finetuning rules that removed pages holding the
 * question's key words before ranking: a page they left out is in no row of the passages below.
 */
function ControlsThatFired({ trace, links }: { trace: AnswerTrace; links: TraceLinks }) {
  const leftOut = trace.left_out;
  return (
    <div>
      <h3>Controls that fired</h3>
      {trace.controls.length || leftOut ? (
        <ul className={s.plainList}>
          {trace.controls.map((control, index) => (
            <li key={`${control.type} ${index}`}>
              <ControlFired control={control} links={links} />
            </li>
          ))}
          {leftOut?.rules.map((rule) => (
            <li key={`${rule.type} ${rule.pattern}`}>
              {leftOutText(rule)}.
              <LeftOutPages rule={rule} />
            </li>
          ))}
          {leftOut?.more_rules ? <li>{moreLeftOutText(leftOut.more_rules)}</li> : null}
          {leftOut ? (
            <li>
              <Link to={links.finetuning}>Review the rules in AI Finetuning</Link>
            </li>
          ) : null}
        </ul>
      ) : (
        <p className={ui.muted}>None fired.</p>
      )}
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
  links,
  canCorrect,
  pageRules,
  thresholdNow = null,
}: {
  answer: ConversationMessage;
  triggerPoint: string;
  links: TraceLinks;
  canCorrect: boolean;
  pageRules: PageRules;
  /** The Minimum Retrieval Confidence the Quality Check sets now; null when unknown. */
  thresholdNow?: number | null;
}) {
  const { trace } = answer;
  const site = triggerPointLabel(triggerPoint);
  return (
    <details className={s.disclosure}>
      <summary className={s.disclosureSummary}>Why this answer</summary>
      {trace ? (
        <div className={s.disclosureBody}>
          <p>
            Outcome: <strong>{outcomeLabel(answer.outcome)}</strong>. {howTheAnswerCame({ ...answer, trace })}
            {canCorrect && answer.outcome === "fallback" && fallbackReasonOf(trace) === "file_not_tagged" ? (
              <>
                {" "}
                <Link to={links.files}>Open Files</Link>
              </>
            ) : null}
          </p>
          {trace.searched ? (
            <p>
              Searched for “<bdi>{trace.searched}</bdi>”, not the whole message: what the visitor said of who they are
              (a name, an email address, a phone number) is not searched, and when the whole message found nothing good
              enough, the sentences that ask something were searched alone.
            </p>
          ) : null}
          {trace.parts ? (
            <ol aria-label="Questions asked">
              {trace.parts.map((part, index) => (
                <li key={index}>
                  <PartOutcome part={part} threshold={trace.threshold} links={links} canCorrect={canCorrect} />
                </li>
              ))}
            </ol>
          ) : null}
          {trace.follow_up ? (
            <p>
              A follow-up: it pointed back at the visitor's question before it, “<bdi>{trace.follow_up}</bdi>”, and was
              searched with it. A test question is asked on its own, so “Add as test question” puts the two together.
            </p>
          ) : null}
          {/* Small talk ran no search: there is no chance, control or passage to show. */}
          {trace.small_talk ? null : (
            <>
              <Chance trace={trace} links={links} />
              {/* The trace keeps the threshold of its day; the Quality Check it links to shows today's. */}
              {thresholdNow !== null && thresholdNow !== trace.threshold && noGoTopicOf(trace) === null ? (
                <p>
                  The Minimum Retrieval Confidence is <strong>{thresholdNow}</strong> now: answers given since are held
                  to it, not to {trace.threshold}.
                </p>
              ) : null}
              <ControlsThatFired trace={trace} links={links} />
              <KeyWords trace={trace} links={links} canCorrect={canCorrect} />
              <h3>Passages retrieved</h3>
              <p className={ui.muted}>
                Rank is the order retrieval put them in, by relevance to the whole question (rare words, titles and
                headings weigh more). Score is the share of the question’s key words a passage holds (named under it);
                it decides whether the passage can be quoted. So a lower rank can score higher.
              </p>
              <PassagesTable
                answerId={answer.id}
                trace={trace}
                site={site}
                triggerPoint={triggerPoint}
                canCorrect={canCorrect}
                pageRules={pageRules}
                files={links.files}
              />
            </>
          )}
        </div>
      ) : (
        <p className={s.disclosureBody}>
          No trace was recorded for this answer: it was given before answers kept their traces.
        </p>
      )}
    </details>
  );
}
