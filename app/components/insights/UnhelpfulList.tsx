import { Link } from "@remix-run/react";
import type { UnhelpfulAnswer } from "@contract";
import { DEFAULT_TRIGGER_POINT_LABEL } from "~/lib/trigger-points";
import * as ui from "~/styles/ui.css";
import * as s from "./insights.css";
import { transcriptPathOf } from "~/lib/conversations";

/** The console's page of one conversation, opened at the answer rated. */
export const conversationLink = (urlCode: string, answer: Pick<UnhelpfulAnswer, "conversation_id" | "message_id">) =>
  `${transcriptPathOf(urlCode, answer.conversation_id)}#message-${answer.message_id}`;

/**
 * The answers visitors rated unhelpful, latest first: the question (a link to the conversation
 * at that answer), what the assistant said, the visitor's comment, where and when. Visitors' words
 * are isolated (<bdi>) from the console's around them.
 */
export function UnhelpfulList({
  answers,
  urlCode,
  agentNames,
}: {
  answers: UnhelpfulAnswer[];
  urlCode: string;
  agentNames: Map<string, string>;
}) {
  return (
    <ol className={s.unhelpfulList} aria-label="The latest answers rated unhelpful">
      {answers.map((answer) => (
        <li key={answer.message_id}>
          <Link to={conversationLink(urlCode, answer)}>
            {answer.question ? <bdi>{answer.question}</bdi> : "(no question kept)"}
          </Link>
          <p className={s.answerText}>{answer.answer}</p>
          {answer.comment ? (
            <p className={s.comment}>
              Visitor’s comment: “<bdi>{answer.comment}</bdi>”
            </p>
          ) : null}
          <p className={s.closest}>
            {agentNames.get(answer.trigger_point) ?? (answer.trigger_point || DEFAULT_TRIGGER_POINT_LABEL)} · rated{" "}
            {answer.rated_at.slice(0, 10)}
            {answer.reviewed ? (
              <>
                {" "}
                · <span className={ui.chip.success}>Reviewed</span>
              </>
            ) : null}
          </p>
        </li>
      ))}
    </ol>
  );
}
