import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../db/rows";
import {
  conversations,
  insightDays,
  insightQuestionMonths,
  insightQuestions,
  insightSources,
  messages,
} from "../db/schema";
import type { ApiDeps } from "../deps";
import { questionKey, utcToday } from "../insights/rollups";
import type { ChatAnswer, ClosestPassage } from "./chat-answer";
import { askedPartOf, smallTalkOf } from "./small-talk";
import { lackedWordsOf } from "./trace";

/*
 * Storing a conversation as it happens, with the dashboard's rollups (api/insights/rollups.ts)
 * counted in the same statements: a chat message costs two writes, whatever it updates.
 */

/** The insight_days column each outcome counts in (a fixed list: never text from a request). */
const OUTCOME_COLUMNS: Record<ChatAnswer["outcome"], SQL> = {
  answered: sql.raw("answered"),
  fallback: sql.raw("fallback"),
  canned: sql.raw("canned"),
  disclaimed: sql.raw("disclaimed"),
  small_talk: sql.raw("small_talk"),
};

/** The visitor's latest messages read for their previous question: small talk between them is skipped. */
const PREVIOUS_MESSAGES_READ = 3;

/** The newest of the visitor's earlier messages that is not small talk ("thanks" asks nothing to follow up). */
function previousQuestionOf(previous: string[] | string | null) {
  const texts: string[] = typeof previous === "string" ? JSON.parse(previous) : (previous ?? []);
  return texts.find((text) => !smallTalkOf(text)) ?? null;
}

/**
 * Stores the visitor's message (and what it asks, without what they said of who they are or a
 * greeting around it, when that differs) in the conversation named, if it belongs to this client,
 * environment and agent (trigger point), else in a new one; counts the question (and a new
 * conversation) for the day. A visitor who goes on to another agent's page with the same embed key
 * starts a conversation with that agent: each answer is listed, traced and corrected under the
 * agent whose settings gave it.
 * Small talk ("hi", "thanks") is a message, not a question: it counts in neither, and is the
 * conversation's last question only in a conversation that holds nothing else. Gives back the
 * visitor's previous question in that conversation (null in a new one, and small talk is none): a
 * follow-up leans on it.
 */
export async function storeQuestion(
  request: { conversation_id?: string; message: string },
  scope: { appId: number; environment: string },
  triggerPoint: string,
  deps: Pick<ApiDeps, "db">,
) {
  const fresh = randomUUID();
  const named = request.conversation_id ?? null;
  const ownPart = askedPartOf(request.message);
  const questionPart = ownPart === request.message ? null : ownPart;
  // 1 for a question, 0 for small talk: what the question counts add.
  const questions = smallTalkOf(request.message) ? 0 : 1;
  const result = await deps.db.execute(sql`
    with existing as (
      update ${conversations} set question_count = question_count + ${questions},
        last_question = case when ${questions} = 1 or last_question = '' then ${request.message} else last_question end
      where id = ${named}::uuid and app_id = ${scope.appId} and environment = ${scope.environment}
        and trigger_point = ${triggerPoint}
      returning id, trigger_point
    ), created as (
      insert into ${conversations} (id, app_id, environment, trigger_point, question_count, last_question)
      select ${fresh}::uuid, ${scope.appId}, ${scope.environment}, ${triggerPoint}, ${questions}, ${request.message} where not exists (select 1 from existing)
      returning id, trigger_point
    ), chosen as (select id, trigger_point from existing union all select id, trigger_point from created),
    counted as (
      insert into ${insightDays} (app_id, trigger_point, environment, day, conversations, questions)
      select ${scope.appId}, trigger_point, ${scope.environment}, ${utcToday}, (select count(*) from created), ${questions} from chosen
      on conflict (app_id, day, trigger_point, environment) do update
        set conversations = ${insightDays}.conversations + excluded.conversations, questions = ${insightDays}.questions + excluded.questions
    )
    insert into ${messages} (conversation_id, app_id, role, text, question_part)
    select id, ${scope.appId}, 'user', ${request.message}, ${questionPart} from chosen
    returning conversation_id, id,
      -- The statement sees the messages as they were before it: the visitor's latest ones, newest first.
      (select json_agg(t.text order by t.id desc) from (select m.id, m.text from ${messages} m join existing on existing.id = m.conversation_id
        where m.role = 'user' order by m.id desc limit ${PREVIOUS_MESSAGES_READ}) t) as previous_messages`);
  const [row] = rowsOf<{
    conversation_id: string;
    id: number | string;
    previous_messages: string[] | string | null;
  }>(result);
  return {
    conversationId: String(row.conversation_id),
    messageId: Number(row.id),
    previousQuestion: previousQuestionOf(row.previous_messages),
  };
}

/**
 * What a message asked, as Insights counts questions: the question itself, or, for a message of
 * several questions answered each on its own (`trace.parts`), each of them, so that one nothing
 * answered is listed among the unanswered questions with the passages found closest for it.
 */
export function questionsAskedOf(question: string, answer: ChatAnswer) {
  const leftOut = Boolean(answer.trace.left_out?.rules.length);
  const asked = (
    text: string,
    outcome: string,
    closest: ClosestPassage[],
    reason: string | undefined,
    notTagged: string[] | undefined,
    part?: number,
  ) => {
    const unanswered = outcome === "fallback" ? 1 : 0;
    return {
      question: text,
      unanswered,
      closest: unanswered ? closest : [],
      fallback_reason: unanswered ? (reason ?? null) : null,
      left_out: unanswered > 0 && leftOut,
      // The files to tag when they are why (the rebuild reads the same: rollups.ts).
      files_not_tagged: unanswered ? (notTagged ?? []) : [],
      // What Insights says the missing page is likely about (the rebuild reads the same: rollups.ts).
      lacked: unanswered ? lackedWordsOf(answer.trace, part) : [],
    };
  };
  const { parts } = answer.trace;
  if (!parts)
    return [
      asked(question, answer.outcome, answer.closest, answer.trace.fallback_reason, answer.trace.files_not_tagged),
    ];
  return parts.map((part, index) =>
    asked(
      part.question,
      part.outcome,
      answer.closest
        .filter((passage) => passage.part === index + 1)
        .map(({ title, url, score, text }) => ({ title, url, score, text })),
      part.fallback_reason,
      part.files_not_tagged,
      index + 1,
    ),
  );
}

/**
 * The outcomes a conversation's list counts an answer under: its own and, for a message of several
 * questions, each its questions had, once each ("answered" and "fallback" when one of three went
 * unanswered). The day's totals count the answer's own outcome only.
 */
export function conversationOutcomesOf(answer: Pick<ChatAnswer, "outcome" | "trace">): ChatAnswer["outcome"][] {
  return [...new Set([answer.outcome, ...(answer.trace.parts ?? []).map((part) => part.outcome)])];
}

/**
 * Stores the answer with its trace, marks the conversation's last message and counts its outcome
 * there, and counts the day's outcome, the question (unanswered ones with the passages found
 * closest; small talk is none) and each source cited. Gives back the answer's message id: the widget rates it by it.
 */
export async function storeAnswer(
  stored: { conversationId: string; appId: number; environment: string; triggerPoint: string; question: string },
  answer: ChatAnswer,
  deps: Pick<ApiDeps, "db">,
) {
  const { conversationId, appId, environment, triggerPoint } = stored;
  // Counted by what was asked: an introduction or a greeting with it is not a question of its own
  // (the rebuild reads question_part).
  const question = askedPartOf(stored.question);
  const text = answer.disclaimer ? `${answer.text}\n\n${answer.disclaimer}` : answer.text;
  const closest = JSON.stringify(answer.closest);
  const asks = JSON.stringify(questionsAskedOf(question, answer));
  const outcomeColumn = OUTCOME_COLUMNS[answer.outcome];
  // The conversation counts the answer under its outcome and under each its questions had: a
  // question of several nothing answered is found by the list's Fallback filter (docs/decisions/048).
  const conversationCounts = sql.join(
    conversationOutcomesOf(answer).map((outcome) => {
      const column = OUTCOME_COLUMNS[outcome];
      return sql`${column} = ${conversations}.${column} + 1`;
    }),
    sql`, `,
  );
  // Small talk asked nothing: it is no Top question (the rebuild leaves it out too).
  const asked = answer.outcome !== "small_talk";
  const result = await deps.db.execute(sql`
    with stored as (
      insert into ${messages} (conversation_id, app_id, role, text, outcome, sources, closest, trace)
      values (${conversationId}::uuid, ${appId}, 'assistant', ${text}, ${answer.outcome}, ${JSON.stringify(answer.sources)}::jsonb, ${closest}::jsonb,
        ${JSON.stringify(answer.trace)}::jsonb)
      returning id, created_at
    ), outcome as (
      insert into ${insightDays} (app_id, trigger_point, environment, day, ${outcomeColumn})
      values (${appId}, ${triggerPoint}, ${environment}, ${utcToday}, 1)
      on conflict (app_id, day, trigger_point, environment) do update set ${outcomeColumn} = ${insightDays}.${outcomeColumn} + 1
    ), asks as (
      select ${questionKey(sql`a.question`)} as key, a.*
      from jsonb_to_recordset(${asks}::jsonb) as a(question text, unanswered int, closest jsonb, fallback_reason text, left_out boolean, files_not_tagged jsonb, lacked jsonb)
      where ${asked}
    ), asked as (
      -- A question asked twice in one message is one row: an insert may not touch a row twice.
      insert into ${insightQuestions} (app_id, trigger_point, environment, day, question_key, asked, unanswered, closest, fallback_reason, left_out, files_not_tagged, wording, lacked, asked_as, asked_as_answer, last_fallback_answer)
      select ${appId}, ${triggerPoint}, ${environment}, ${utcToday}, key, count(*), sum(unanswered),
        coalesce((array_agg(closest) filter (where unanswered > 0))[1], '[]'::jsonb),
        (array_agg(fallback_reason) filter (where unanswered > 0))[1],
        coalesce((array_agg(left_out) filter (where unanswered > 0))[1], false),
        coalesce((array_agg(files_not_tagged) filter (where unanswered > 0))[1], '[]'::jsonb),
        (array_agg(question) filter (where unanswered > 0))[1],
        coalesce((array_agg(lacked) filter (where unanswered > 0))[1], '[]'::jsonb),
        (array_agg(question))[1], (select stored.id from stored),
        case when sum(unanswered) > 0 then (select stored.id from stored) end
      from asks group by key
      on conflict (app_id, day, trigger_point, environment, question_key) do update
        set asked = ${insightQuestions}.asked + excluded.asked, unanswered = ${insightQuestions}.unanswered + excluded.unanswered,
          -- What the latest unanswered ask found, and why it went unanswered (the rebuild's rule: rollups.ts).
          closest = case when excluded.unanswered > 0 then excluded.closest else ${insightQuestions}.closest end,
          fallback_reason = case when excluded.unanswered > 0 then excluded.fallback_reason else ${insightQuestions}.fallback_reason end,
          left_out = case when excluded.unanswered > 0 then excluded.left_out else ${insightQuestions}.left_out end,
          files_not_tagged = case when excluded.unanswered > 0 then excluded.files_not_tagged else ${insightQuestions}.files_not_tagged end,
          wording = case when excluded.unanswered > 0 then excluded.wording else ${insightQuestions}.wording end,
          lacked = case when excluded.unanswered > 0 then excluded.lacked else ${insightQuestions}.lacked end,
          -- The latest wording, answered or not, is how Top questions shows the question.
          asked_as = excluded.asked_as, asked_as_answer = excluded.asked_as_answer,
          last_fallback_answer = case when excluded.unanswered > 0 then excluded.last_fallback_answer else ${insightQuestions}.last_fallback_answer end
    ), asked_in_month as (
      insert into ${insightQuestionMonths} (app_id, trigger_point, environment, month, question_key, asked, unanswered)
      select ${appId}, ${triggerPoint}, ${environment}, date_trunc('month', ${utcToday})::date, key, count(*), sum(unanswered)
      from asks group by key
      on conflict (app_id, month, trigger_point, environment, question_key) do update
        set asked = ${insightQuestionMonths}.asked + excluded.asked, unanswered = ${insightQuestionMonths}.unanswered + excluded.unanswered
    ), cited as (
      insert into ${insightSources} (app_id, trigger_point, environment, day, url, title, cited)
      select ${appId}, ${triggerPoint}, ${environment}, ${utcToday}, source->>'url', source->>'title', 1
      from jsonb_array_elements(${JSON.stringify(answer.citedPages)}::jsonb) as source
      on conflict (app_id, day, trigger_point, environment, url) do update set cited = ${insightSources}.cited + 1, title = excluded.title
    ), conversation as (
      update ${conversations} set last_message_at = (select created_at from stored), ${conversationCounts}
      where id = ${conversationId}::uuid
    )
    select id from stored`);
  const [row] = rowsOf<{ id: number | string }>(result);
  return { messageId: Number(row.id) };
}
