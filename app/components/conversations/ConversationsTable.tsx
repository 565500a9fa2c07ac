import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { ConversationRow } from "@contract";
import { CHAT_OUTCOMES } from "@contract/values/chat";
import { shortened } from "@contract/text";
import {
  CONVERSATION_RATING_LABELS,
  environmentLabel,
  listSearchOf,
  NOT_RATED_LABEL,
  OUTCOME_CHIP_LABELS,
  OUTCOME_TONES,
  triggerPointWithAgent,
} from "~/lib/conversations";
import { formatDateTime } from "~/lib/dates";
import * as ui from "~/styles/ui.css";
import * as s from "./conversations.css";

export const NO_CONVERSATIONS_TEXT = "No conversations match these filters.";

/** How many answers came out each way, as chips (outcomes with none left out). */
export function OutcomeChips({ outcomes }: { outcomes: ConversationRow["outcomes"] }) {
  const shown = CHAT_OUTCOMES.filter((outcome) => outcomes[outcome] > 0);
  if (!shown.length) return <span className={ui.muted}>No answer</span>;
  return (
    <span className={s.chips}>
      {shown.map((outcome) => (
        <span key={outcome} className={ui.chip[OUTCOME_TONES[outcome]]} data-outcome={outcome}>
          {outcomes[outcome]} {OUTCOME_CHIP_LABELS[outcome]}
        </span>
      ))}
    </span>
  );
}

/** Conversations started in the same minute are told apart by what was asked last (its start, when long). */
function openConversationLabel(row: ConversationRow) {
  const asked = shortened(row.last_question, 80);
  const started = `Open the conversation started ${formatDateTime(row.started_at)}`;
  return asked ? `${started}: “${asked}”` : started;
}

/**
 * Whether an operator went through it: yes once an answer is marked reviewed and no answer rated
 * unhelpful waits, else how many such answers wait (the reason it is not), else no.
 */
function ReviewState({ row }: { row: ConversationRow }) {
  if (row.reviewed) return <>Yes</>;
  if (row.awaiting_review > 0)
    return (
      <span className={`${ui.chip.warning} ${s.wrappingChip}`}>
        {row.awaiting_review === 1 ? "1 rated unhelpful waits" : `${row.awaiting_review} rated unhelpful wait`}
      </span>
    );
  return <span className={ui.muted}>No</span>;
}

/**
 * The conversations, in the order asked for: when each started (the link to its transcript), where,
 * how many questions and the last one, how its answers came out, the visitor's rating, whether a
 * lead was captured and whether it was reviewed. The trigger point column shows at client level only.
 */
export function ConversationsTable({
  conversations,
  listPath,
  agentNames,
  emptyText = NO_CONVERSATIONS_TEXT,
}: {
  conversations: ConversationRow[];
  listPath: string;
  /** What the table says when it has no row. */
  emptyText?: ReactNode;
  /** The client's agents by site code, for the client-wide list's Trigger point column; null under an agent. */
  agentNames: Record<string, string> | null;
}) {
  const showTriggerPoint = agentNames !== null;
  const columns = 8 + (showTriggerPoint ? 1 : 0);
  // Each conversation carries the list's filters and page, for its way back.
  const listSearch = listSearchOf(useLocation().search);
  return (
    <div className={ui.tableScroll} tabIndex={0}>
      <table aria-label="Conversations" className={ui.denseTable}>
        <thead>
          <tr>
            <th scope="col">Started (UTC)</th>
            <th scope="col">Environment</th>
            {showTriggerPoint ? <th scope="col">Trigger point</th> : null}
            <th scope="col">Questions</th>
            <th scope="col">Last question</th>
            <th scope="col">Outcomes</th>
            <th scope="col">Rating</th>
            <th scope="col">Lead</th>
            <th scope="col">Reviewed</th>
          </tr>
        </thead>
        <tbody>
          {conversations.length ? (
            conversations.map((row) => (
              <tr key={row.id} data-conversation-id={row.id}>
                <td className={ui.dateTimeCell}>
                  <Link to={`${listPath}/${row.id}${listSearch}`} aria-label={openConversationLabel(row)}>
                    <time dateTime={row.started_at}>{formatDateTime(row.started_at)}</time>
                  </Link>
                </td>
                <td>{environmentLabel(row.environment)}</td>
                {agentNames ? (
                  <td className={s.triggerPoint}>{triggerPointWithAgent(row.trigger_point, agentNames)}</td>
                ) : null}
                <td className={s.number}>{row.questions}</td>
                <td className={s.lastQuestion}>
                  <bdi className={s.clamped} title={row.last_question}>
                    {row.last_question}
                  </bdi>
                </td>
                <td>
                  <OutcomeChips outcomes={row.outcomes} />
                </td>
                <td>
                  {row.rating ? (
                    CONVERSATION_RATING_LABELS[row.rating]
                  ) : (
                    <span className={ui.muted}>{NOT_RATED_LABEL}</span>
                  )}
                </td>
                <td>
                  {row.lead ? <span className={ui.chip.success}>Lead</span> : <span className={ui.muted}>No</span>}
                </td>
                <td>
                  <ReviewState row={row} />
                </td>
              </tr>
            ))
          ) : (
            <tr>
              <td colSpan={columns}>{emptyText}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
