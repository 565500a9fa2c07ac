import { Fragment } from "react";
import { shortened } from "@contract/text";
import { Form, Link } from "@remix-run/react";
import type { Insights } from "@contract";
import { TEST_QUESTION_MAX_CHARS } from "@contract/values/testing";
import { StatusChip } from "~/components/StatusChip";
import { answeredSinceText, GAP_ANCHOR, gapAdvice, type GapLinks } from "~/lib/insights-gaps";
import { urlRowPath } from "~/lib/urls";
import * as ui from "~/styles/ui.css";
import * as s from "./insights.css";

const STATE_LABELS = {
  indexed: "indexed",
  not_indexed: "not yet indexed",
  skipped: "skipped",
  failed: "failed to index",
  deleted: "deleted",
} as const;

export type Gap = Insights["unanswered_questions"][number];

/** A question as the dashboard shows it: its words on one line, a long one cut with "…" (its conversations hold it whole). */
const shownQuestion = (question: string) => shortened(question.replace(/\s+/g, " ").trim(), 300);

/** The advice under an unanswered question (gapAdvice). */
function WhatToDo({ gap, links, canConfigure }: { gap: Gap; links: GapLinks; canConfigure: boolean }) {
  // A read-only Client is told why, without the changes they may not make.
  const { why, actions } = gapAdvice(gap, canConfigure ? links : { ...links, store: null, files: null });
  return (
    <>
      {why ? <p className={s.closest}>{why}</p> : null}
      <p className={s.closest}>
        {/* What the visitors were told, and each answer's trace: open to everyone who reads the dashboard. */}
        <Link to={links.conversations}>
          Read the conversations
          <span className={ui.visuallyHidden}>
            {" "}
            that asked <bdi>{gap.asked_as}</bdi>
          </span>
        </Link>
        {actions.map((action) => (
          <Fragment key={action.to}>
            {" · "}
            <Link to={action.to}>{action.label}</Link>
          </Fragment>
        ))}
      </p>
    </>
  );
}

/**
 * One action on an unanswered question, a plain form post: the question's place in the list comes
 * back with it (`gap`), so the page returns to it; a screen reader hears what the button acts on.
 */
function GapAction({
  gap,
  intent,
  fields,
  label,
  about,
}: {
  gap: number;
  intent: "add-test-question" | "index-page";
  fields: Record<string, string>;
  label: string;
  about: string;
}) {
  return (
    <Form method="post" className={s.inlineForm} preventScrollReset>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="gap" value={gap} />
      <button type="submit" name="intent" value={intent} className={ui.button.link}>
        {label}
        <span className={ui.visuallyHidden}>
          : <bdi>{about}</bdi>
        </span>
      </button>
    </Form>
  );
}

/**
 * The questions that went unanswered, each beside the passages that came closest when it was
 * asked, the pages of the client's own inventory that look like its subject, whatever their
 * status, and why it went unanswered with where to put that right: one click indexes a page that
 * is not, another keeps the question as a test question. What visitors wrote and what pages say
 * sits in <bdi>: a right-to-left mark or override in it must not turn the console's own words
 * beside it around.
 */
export function GapList({
  gaps,
  linksOf,
  canConfigure,
}: {
  gaps: Gap[];
  /** Where to act on a question: its agent's screens. */
  linksOf: (gap: Gap) => GapLinks;
  canConfigure: boolean;
}) {
  return (
    <ol>
      {gaps.map((gap, index) => (
        <GapItem key={gap.question} index={index} gap={gap} links={linksOf(gap)} canConfigure={canConfigure} />
      ))}
    </ol>
  );
}

/** One unanswered question: what came closest, the inventory's pages on it, why, and what to do. */
function GapItem({
  index,
  gap,
  links,
  canConfigure,
}: {
  index: number;
  gap: Gap;
  links: GapLinks;
  canConfigure: boolean;
}) {
  const store = links.store;
  return (
    <li id={GAP_ANCHOR(index)} className={s.gap}>
      <strong>
        <bdi>{shownQuestion(gap.asked_as)}</bdi>
      </strong>{" "}
      <span className={ui.muted}>({gap.unanswered}×)</span>
      {!canConfigure ? null : gap.asked_as.length > TEST_QUESTION_MAX_CHARS ? (
        // Kept whole it would be refused, and cut it would be another question: the operator words a shorter one.
        <span className={ui.muted}>
          {" "}
          Longer than a test question may be ({TEST_QUESTION_MAX_CHARS.toLocaleString("en")} characters): add a shorter
          one from <Link to={links.conversations}>its conversations</Link>.
        </span>
      ) : (
        <GapAction
          gap={index}
          intent="add-test-question"
          fields={{ question: gap.asked_as, trigger_point: gap.trigger_point }}
          label="Add as test question"
          about={gap.asked_as}
        />
      )}
      {gap.answered_since ? <p className={s.closest}>{answeredSinceText(gap.answered_since)}</p> : null}
      {gap.closest.length ? (
        <ul className={s.closest}>
          {gap.closest.map((c) => (
            <li key={`${c.url}-${c.text.slice(0, 20)}`}>
              Closest: “<bdi>{shortened(c.text, 121)}</bdi>”{" "}
              {c.url ? (
                <a href={c.url} target="_blank" rel="noopener noreferrer">
                  <bdi>{c.title || c.url}</bdi>
                </a>
              ) : (
                <bdi>{c.title}</bdi>
              )}{" "}
              (score {c.score})
              {store && c.url ? (
                <>
                  {" "}
                  ·{" "}
                  <Link to={urlRowPath(store, c.url)}>
                    {canConfigure ? "Index it again" : "See it in the knowledge store"}
                  </Link>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className={s.closest}>Nothing in the knowledge store comes close.</p>
      )}
      {gap.pages.length ? (
        <ul className={s.closest} aria-label={`Pages of the inventory about “${gap.asked_as}”`}>
          {gap.pages.map((page) => (
            <li key={page.url_id} data-state={page.state}>
              Page:{" "}
              <a href={page.url} target="_blank" rel="noopener noreferrer">
                <bdi>{page.title || page.url}</bdi>
              </a>{" "}
              <StatusChip status={page.status} />
              {/* The state in words only where the status chip does not already say it. */}
              {STATE_LABELS[page.state] !== page.status.replaceAll("_", " ") ? ` ${STATE_LABELS[page.state]}` : null}
              {page.reason ? (
                <>
                  : <bdi>{page.reason}</bdi>
                </>
              ) : null}
              {canConfigure && page.state !== "indexed" ? (
                <GapAction
                  gap={index}
                  intent="index-page"
                  fields={{ url_id: String(page.url_id) }}
                  label="Index it"
                  about={page.url}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <WhatToDo gap={gap} links={links} canConfigure={canConfigure} />
    </li>
  );
}
