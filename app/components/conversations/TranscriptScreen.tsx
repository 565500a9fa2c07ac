import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect } from "react";
import type { ConversationMessage } from "@contract";
import { AnswerSources } from "~/components/AnswerSources";
import { useFormGeneration } from "~/lib/use-form-generation";
import {
  ANSWER_RATING_LABELS,
  environmentLabel,
  listSearchOf,
  OUTCOME_TONES,
  profilePathOf,
  testQuestionFromAnswer,
  triggerPointWithAgent,
} from "~/lib/conversations";
import { formatDateTime, formatTimeOfDay } from "~/lib/dates";
import { outcomeLabel } from "~/lib/test-questions";
import type { CorrectionActionData, loadConversation } from "~/server/conversations.server";
import * as ui from "~/styles/ui.css";
import { ReviewForm, TestQuestionForm, type PostedTestQuestion } from "./AnswerCorrections";
import * as s from "./conversations.css";
import { PartOutcomeChips, WhyThisAnswer, type PageRules, type TraceLinks } from "./WhyThisAnswer";

/** One answer: its outcome, text, sources, the visitor's verdict, the review, the trace, and the corrections for those who may make them. */
function Answer({
  answer,
  triggerPoint,
  links,
  canCorrect,
  pageRules,
  thresholdNow,
  posted,
  generation,
}: {
  answer: ConversationMessage;
  triggerPoint: string;
  links: TraceLinks;
  canCorrect: boolean;
  pageRules: PageRules;
  thresholdNow: number | null;
  posted: PostedTestQuestion | null;
  generation: string;
}) {
  return (
    <>
      <AnswerSources sources={answer.sources} className={s.sources} />
      {answer.comment ? (
        <blockquote className={s.comment}>
          <span className={ui.visuallyHidden}>The visitor's comment: </span>
          <bdi>{answer.comment}</bdi>
        </blockquote>
      ) : null}
      <WhyThisAnswer
        answer={answer}
        triggerPoint={triggerPoint}
        links={links}
        canCorrect={canCorrect}
        pageRules={pageRules}
        thresholdNow={thresholdNow}
      />
      {canCorrect ? (
        <div className={s.corrections}>
          <ReviewForm answer={answer} />
          {/* A new form after each correction saved (prefilled and closed again); a refused one keeps what is typed. */}
          <TestQuestionForm key={generation} answer={answer} values={testQuestionFromAnswer(answer)} posted={posted} />
        </div>
      ) : null}
    </>
  );
}

/**
 * A conversation as the visitor had it: every message with its time, each answer with its outcome,
 * sources, rating and review, and "Why this answer". Each message is `#message-{id}`, where
 * Business Insights links to it.
 */
/**
 * A correction brings the page back with the control it was made with named in the address's
 * fragment (the browser scrolls to it, with or without JavaScript): with JavaScript it takes the
 * keyboard again too, where a new page would have left it on the page's body.
 */
function useFocusOnControlNamed() {
  const { key, hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target?.matches("button, summary")) target.focus({ preventScroll: true });
  }, [key, hash]);
}

export function TranscriptScreen() {
  const {
    client,
    agent,
    agentNames,
    listPath,
    conversation,
    canCorrect,
    pageRules,
    thresholdNow,
    testQuestionsPath,
    qualityCheckPath,
    topicScreens,
    finetuningPath,
    knowledgeStorePath,
    filesPath,
  } = useLoaderData<typeof loadConversation>();
  const links: TraceLinks = {
    qualityCheck: qualityCheckPath,
    topicScreens,
    finetuning: finetuningPath,
    knowledgeStore: knowledgeStorePath,
    files: filesPath,
  };
  const posted = useActionData<CorrectionActionData>();
  const generation = useFormGeneration();
  useFocusOnControlNamed();
  // Back to the rows it was opened from: the list's filters and page came with it.
  const listSearch = listSearchOf(useLocation().search);
  return (
    <section aria-labelledby="conversation-title">
      <p>
        <Link to={`${listPath}${listSearch}`}>← Conversations</Link>
      </p>
      <h1 id="conversation-title">Conversation of {formatDateTime(conversation.started_at)} (UTC)</h1>
      <dl className={s.facts}>
        <div>
          <dt>Environment</dt>
          <dd>{environmentLabel(conversation.environment)}</dd>
        </div>
        {agent ? null : (
          <div>
            <dt>Trigger point</dt>
            <dd>{triggerPointWithAgent(conversation.trigger_point, agentNames)}</dd>
          </div>
        )}
        <div>
          <dt>Questions</dt>
          <dd>{conversation.questions}</dd>
        </div>
        <div>
          <dt>Lead captured</dt>
          <dd>
            {conversation.lead ? (
              <>
                Yes: <Link to={profilePathOf(client.urlCode, conversation.id)}>the visitor&apos;s profile</Link>
              </>
            ) : (
              "No"
            )}
          </dd>
        </div>
      </dl>
      {canCorrect ? (
        <p className={ui.muted}>
          Each answer can become a <Link to={testQuestionsPath}>test question</Link>, lower or exclude a page it was
          drawn from (in “Why this answer”), or be marked reviewed.
        </p>
      ) : null}
      <ol className={s.messages} aria-label="Messages">
        {conversation.messages.map((message) => (
          <li key={message.id} id={`message-${message.id}`} className={s.message} data-role={message.role}>
            <div className={s.messageHeader}>
              <strong>{message.role === "user" ? "Visitor" : "Assistant"}</strong>
              <time dateTime={message.at} title={formatDateTime(message.at)} className={ui.muted}>
                {formatTimeOfDay(message.at)}
              </time>
              {message.outcome ? (
                <span className={ui.chip[OUTCOME_TONES[message.outcome]]} data-outcome={message.outcome}>
                  {outcomeLabel(message.outcome)}
                </span>
              ) : null}
              <PartOutcomeChips answer={message} />
              {message.rating ? (
                <span className={message.rating === "up" ? ui.chip.success : ui.chip.error}>
                  {ANSWER_RATING_LABELS[message.rating]}
                </span>
              ) : null}
              {message.role === "assistant" && message.reviewed ? <span className={ui.chip.info}>Reviewed</span> : null}
            </div>
            <p className={s.text}>{message.text}</p>
            {message.role === "assistant" ? (
              <Answer
                answer={message}
                triggerPoint={conversation.trigger_point}
                links={links}
                canCorrect={canCorrect}
                pageRules={pageRules}
                thresholdNow={thresholdNow}
                posted={posted?.messageId === message.id ? posted : null}
                generation={generation}
              />
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
