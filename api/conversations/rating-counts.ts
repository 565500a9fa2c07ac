import { sql, type SQL } from "drizzle-orm";

/**
 * The conversation's rating and review columns, counted again from its messages: an assignment list
 * for `update conversations set … where id = …`. A rating or a review changes one message; counting
 * the conversation's few answers again (by the messages_conversation_idx index) keeps the columns
 * right under concurrent ratings and reviews, where adding and subtracting could drift. Run it as
 * its own statement after the message's: a data-modifying CTE of the same statement would count
 * the messages as they were before it.
 */
export function ratingCountsOf(conversationId: SQL): SQL {
  const answers = sql`from messages m where m.conversation_id = ${conversationId} and m.role = 'assistant'`;
  return sql`
    rated_up = (select count(*) ${answers} and m.rating = 'up'),
    rated_down = (select count(*) ${answers} and m.rating = 'down'),
    down_unreviewed = (select count(*) ${answers} and m.rating = 'down' and not m.reviewed),
    reviewed_answers = (select count(*) ${answers} and m.reviewed)`;
}
