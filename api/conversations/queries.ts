import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  CONVERSATION_COUNT_CAP,
  CURSOR_MESSAGE,
  SEARCH_COUNT_CAP,
  type ConversationDetail,
  type ConversationRow,
  type ConversationsQuery,
} from "@contract";
import type { ApiDeps } from "../deps";
import { containing } from "../db/like";
import { badRequest } from "../http/errors";
import { rowsOf } from "../db/rows";
import { cursorOf, exactTime, ExactTime, KeyCount, KeyUuid, readCursor } from "../db/keyset";
import { isUnspaced } from "../knowledge/words/lexemes";
import { TEST_QUESTION_MAX_CHARS } from "@contract/values/testing";
import { withFileLinks } from "../files/file-links";

type Query = z.output<typeof ConversationsQuery>;

/** The conversations column each outcome filter reads (a fixed list: never text from a request). */
const OUTCOME_COLUMNS: Record<NonNullable<Query["outcome"]>, SQL> = {
  answered: sql.raw("c.answered"),
  fallback: sql.raw("c.fallback"),
  canned: sql.raw("c.canned"),
  disclaimed: sql.raw("c.disclaimed"),
  small_talk: sql.raw("c.small_talk"),
};

const ORDERS: Record<Query["sort"], SQL> = {
  latest: sql.raw("c.started_at desc, c.id desc"),
  oldest: sql.raw("c.started_at asc, c.id asc"),
  most_questions: sql.raw("c.question_count desc, c.started_at desc, c.id desc"),
};

/** A cursor of the list: the sort it was given for, then that sort's values of the row it names. */
const ListCursor = z.union([
  z.tuple([z.enum(["latest", "oldest"]), ExactTime, KeyUuid]),
  z.tuple([z.literal("most_questions"), KeyCount, ExactTime, KeyUuid]),
]);

/**
 * The rows after a cursor's, in the sort's order. Every sort orders each of its columns the same
 * way, so one row comparison says "after"; it reads the conversations_app_* indexes in order.
 */
function afterCursor(sort: Query["sort"], cursor: string): SQL {
  const key = readCursor(cursor, ListCursor);
  if (key[0] !== sort) throw badRequest(CURSOR_MESSAGE, { after: [CURSOR_MESSAGE] });
  if (key[0] === "most_questions")
    return sql`(c.question_count, c.started_at, c.id) < (${key[1]}::int, ${key[2]}::timestamptz, ${key[3]}::uuid)`;
  const [, at, id] = key;
  return sort === "oldest"
    ? sql`(c.started_at, c.id) > (${at}::timestamptz, ${id}::uuid)`
    : sql`(c.started_at, c.id) < (${at}::timestamptz, ${id}::uuid)`;
}

const cursorOfRow = (sort: Query["sort"], row: ListRecord) =>
  cursorOf(
    sort === "most_questions"
      ? [sort, Number(row.question_count), row.started_key, String(row.id)]
      : [sort, row.started_key, String(row.id)],
  );

const HANGUL = /\p{Script=Hangul}/u;
/** Whether a search holds letters whose words the simple parser cannot tell apart. */
const searchesInsideWords = (search: string) => isUnspaced(search) || HANGUL.test(search);

/** "Reviewed": an operator went through it, and no answer rated down waits for them. */
const REVIEWED = sql.raw("(c.reviewed_answers > 0 and c.down_unreviewed = 0)");

/**
 * A search as words the messages' words begin with, all of them: "park" finds "parking", and
 * "maya.chen" the address "maya.chen@example.net" (one word to the simple parser). Each word of the
 * search, as the same parser reads it, becomes a quoted prefix term; the quoting doubles quotes and
 * backslashes, so no search is read as query syntax. A search of no word matches nothing. A word
 * shorter than PREFIX_MIN_LETTERS is matched whole: "a" as a beginning would read most of the index.
 */
const PREFIX_MIN_LETTERS = 3;
const wordsBeginningWith = (search: string) => sql`(
  select string_agg(
    '''' || replace(replace(w.lexeme, chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || ''''
      || case when length(w.lexeme) >= ${PREFIX_MIN_LETTERS} then ':*' else '' end, ' & ')
  from unnest(to_tsvector('simple', ${search})) w)::tsquery`;

/**
 * The conditions of the Conversations list (alias c for conversations).
 * Every filter but the search reads the conversation's own row: its outcome, rating and review
 * counts are kept on it as messages, ratings and reviews are stored.
 */
function conversationFilter(appId: number, query: Query): SQL {
  const parts = [sql`c.app_id = ${appId}`];
  if (query.trigger_point !== undefined) parts.push(sql`c.trigger_point = ${query.trigger_point}`);
  if (query.environment !== "all") parts.push(sql`c.environment = ${query.environment}`);
  if (query.outcome) parts.push(sql`${OUTCOME_COLUMNS[query.outcome]} > 0`);
  if (query.rating === "up") parts.push(sql`c.rated_up > 0`);
  if (query.rating === "down") parts.push(sql`c.rated_down > 0`);
  if (query.rating === "unrated") parts.push(sql`c.rated_up = 0 and c.rated_down = 0`);
  const isLead = sql`exists (select 1 from visitor_profiles lead where lead.conversation_id = c.id and lead.is_lead)`;
  if (query.lead === "true") parts.push(isLead);
  if (query.lead === "false") parts.push(sql`not ${isLead}`);
  if (query.reviewed === "true") parts.push(REVIEWED);
  if (query.reviewed === "false") parts.push(sql`not ${REVIEWED}`);
  // Days are UTC days, as Business Insights counts them.
  if (query.from) parts.push(sql`c.started_at >= ${query.from}::date::timestamp at time zone 'utc'`);
  if (query.to) parts.push(sql`c.started_at < (${query.to}::date + 1)::timestamp at time zone 'utc'`);
  if (query.search) {
    // Whole words of any message, any case. Written as `exists`, the planner chooses: a rare word
    // is looked up in messages_words_idx, a common one checked on each conversation's few messages
    // as the list is read in order, stopping once the page (and the capped count) is full.
    // A script without spaces between words (or Korean, which joins particles to its words) has
    // no whole words to Postgres' simple parser, which reads a sentence as one: there the search
    // is for the text anywhere in a message.
    const matches = searchesInsideWords(query.search)
      ? sql`m.text ilike ${containing(query.search)}`
      : sql`to_tsvector('simple', m.text) @@ ${wordsBeginningWith(query.search)}`;
    parts.push(sql`exists (select 1 from messages m where m.conversation_id = c.id and ${matches})`);
  }
  return sql.join(parts, sql` and `);
}

interface ListRecord {
  id: string;
  started_at: string | Date;
  environment: string;
  trigger_point: string;
  question_count: number;
  last_question: string;
  answered: number;
  fallback: number;
  canned: number;
  disclaimed: number;
  small_talk: number;
  rated_up: number;
  rated_down: number;
  reviewed: boolean;
  down_unreviewed: number;
  lead: boolean | null;
  /** started_at to the microsecond, for the cursor. */
  started_key: string;
}

function ratingOf(up: number, down: number): ConversationRow["rating"] {
  if (up && down) return "mixed";
  if (down) return "down";
  return up ? "up" : null;
}

const toRow = (row: ListRecord): ConversationRow => ({
  id: String(row.id),
  started_at: new Date(row.started_at).toISOString(),
  environment: row.environment,
  trigger_point: row.trigger_point,
  questions: Number(row.question_count),
  last_question: row.last_question,
  outcomes: {
    answered: Number(row.answered),
    fallback: Number(row.fallback),
    canned: Number(row.canned),
    disclaimed: Number(row.disclaimed),
    small_talk: Number(row.small_talk),
  },
  rating: ratingOf(Number(row.rated_up), Number(row.rated_down)),
  lead: Boolean(row.lead),
  reviewed: Boolean(row.reviewed),
  awaiting_review: Number(row.down_unreviewed),
});

/**
 * One page of a client's conversations and how many match, read from the conversations' own rows.
 * With `after`, the page goes on after that cursor's row (page is not read) and nothing is counted.
 */
export async function listConversations(appId: number, query: Query, deps: Pick<ApiDeps, "db">) {
  const where = conversationFilter(appId, query);
  const keyset = query.after === undefined ? null : afterCursor(query.sort, query.after);
  // Counted up to the cap: past it nobody reads the number, and counting every row of a large
  // client cost more than the page itself.
  const cap = query.search ? SEARCH_COUNT_CAP : CONVERSATION_COUNT_CAP;
  const total = keyset
    ? null
    : Number(
        rowsOf<{ total: number }>(
          await deps.db.execute(sql`
    select count(*)::int as total from (select 1 from conversations c where ${where} limit ${cap + 1}) matched`),
        )[0].total,
      );
  // One row past the page says whether another follows (next_after).
  const rows = rowsOf<ListRecord>(
    await deps.db.execute(sql`
    select c.id, c.started_at, c.environment, c.trigger_point, c.question_count, c.last_question, c.answered, c.fallback, c.canned, c.disclaimed, c.small_talk,
      c.rated_up, c.rated_down, ${REVIEWED} as reviewed, c.down_unreviewed, p.is_lead as lead, ${exactTime(sql`c.started_at`)} as started_key
    from conversations c left join visitor_profiles p on p.conversation_id = c.id
    where ${where}${keyset ? sql` and ${keyset}` : sql``}
    order by ${ORDERS[query.sort]}
    limit ${query.page_size + 1} offset ${keyset ? 0 : (query.page - 1) * query.page_size}`),
  );
  const page = rows.slice(0, query.page_size);
  const next_after = rows.length > query.page_size ? cursorOfRow(query.sort, page[page.length - 1]) : null;
  return total === null
    ? { data: page.map(toRow), total: 0, total_is_capped: true, next_after }
    : { data: page.map(toRow), total: Math.min(total, cap), total_is_capped: total > cap, next_after };
}

/**
 * The question an answer answered, as "Add as test question" is prefilled with it: a message too
 * long for a test question is given as what retrieval searched of it (its last words, or the
 * sentences that ask), which the trace keeps, after an ellipsis when the message was cut.
 */
function testableQuestion(question: string | null, trace: MessageRecord["trace"]) {
  if (question === null || question.length <= TEST_QUESTION_MAX_CHARS || !trace?.searched) return question;
  return trace.searched.replace(/^…/, "");
}

interface MessageRecord {
  id: number | string;
  role: "user" | "assistant";
  text: string;
  /** A question without what the visitor said of who they are; null when that is the whole of it. */
  question_part: string | null;
  created_at: string | Date;
  outcome: ConversationDetail["messages"][number]["outcome"];
  sources: { title: string; url: string; file_id?: number }[];
  rating: "up" | "down" | null;
  comment: string | null;
  reviewed: boolean;
  trace: ConversationDetail["messages"][number]["trace"];
}

/**
 * A conversation of this client with every message, each answer with the question it answered and
 * its uploaded files as they are now (a link signed anew, or marked deleted: api/files/file-links.ts);
 * null when there is none.
 */
export async function conversationDetail(
  appId: number,
  conversationId: string,
  deps: Pick<ApiDeps, "db" | "storage" | "config">,
): Promise<ConversationDetail | null> {
  const [conversation] = rowsOf<{
    id: string;
    started_at: string | Date;
    environment: string;
    trigger_point: string;
    question_count: number;
    lead: boolean | null;
  }>(
    await deps.db.execute(sql`
      select c.id, c.started_at, c.environment, c.trigger_point, c.question_count, p.is_lead as lead
      from conversations c left join visitor_profiles p on p.conversation_id = c.id
      where c.id = ${conversationId}::uuid and c.app_id = ${appId}`),
  );
  if (!conversation) return null;
  const said = await withFileLinks(
    appId,
    rowsOf<MessageRecord>(
      await deps.db.execute(sql`
      select id, role, text, question_part, created_at, outcome, sources, rating, comment, reviewed, trace
      from messages where conversation_id = ${conversationId}::uuid order by id`),
    ).map((message) => ({ ...message, at: new Date(message.created_at), sources: message.sources ?? [] })),
    deps,
  );
  let question: string | null = null;
  return {
    id: String(conversation.id),
    started_at: new Date(conversation.started_at).toISOString(),
    environment: conversation.environment,
    trigger_point: conversation.trigger_point,
    questions: Number(conversation.question_count),
    lead: Boolean(conversation.lead),
    messages: said.map((message) => {
      // As it was searched: without the name or address the visitor gave with it (a test question is made from it).
      if (message.role === "user") question = message.question_part ?? message.text;
      const isAnswer = message.role === "assistant";
      return {
        id: Number(message.id),
        role: message.role,
        text: message.text,
        at: message.at.toISOString(),
        outcome: isAnswer ? message.outcome : null,
        sources: message.sources,
        rating: message.rating,
        comment: message.comment,
        reviewed: Boolean(message.reviewed),
        question: isAnswer ? testableQuestion(question, message.trace) : null,
        trace: isAnswer ? (message.trace ?? null) : null,
      };
    }),
  };
}
