import { sql } from "drizzle-orm";
import { FeedbackRequest, FeedbackResult, type AnswerRating } from "@contract";
import { ratingCountsOf } from "../conversations/rating-counts";
import { rowsOf } from "../db/rows";
import { conversations, messages } from "../db/schema";
import type { ApiDeps } from "../deps";
import { HttpError, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { TooManyRequests, visitorOf } from "../http/throttle";
import { resolveEmbedKey, type Environment } from "./keys";
import type { RateLimiter, UnknownKeyLimit } from "./rate-limit";

/*
 * A visitor's thumbs up or down on one answer, sent by the widget under each answer it showed.
 * The visitor proves nothing but holding the conversation's id (a random UUID the chat gave them)
 * and the embed key of its client and environment: both must match the answer rated.
 */

export const FEEDBACK_PATH = "/v1/chat/feedback";

/**
 * The largest rating body: a 500-character comment even if every character came as a six-byte
 * `\uXXXX` escape, the key and the ids, with room to spare. Anyone may post here, so a larger
 * body is refused before it is read (api/chat/routes.ts).
 */
export const FEEDBACK_MAX_BODY_BYTES = 8 * 1024;

/**
 * The one answer for an unknown conversation, a message of another conversation and one of
 * another client or environment alike: which of them it was would tell what exists elsewhere.
 */
export const NO_SUCH_ANSWER = "This answer is not part of this conversation";

export const ONLY_ANSWERS = "Only answers can be rated";

interface Rating {
  conversationId: string;
  messageId: number;
  rating: AnswerRating;
  comment?: string;
}

/**
 * Stores the rating on the answer, replacing any earlier one (a thumbs up keeps no comment), then
 * counts the conversation's rating columns again. Throws 404 unless the message is in this
 * client's and environment's conversation, and 422 for a visitor's own question.
 */
export async function rateAnswer(
  rated: Rating,
  scope: { appId: number; environment: Environment },
  deps: Pick<ApiDeps, "db">,
) {
  const comment = rated.rating === "down" && rated.comment ? rated.comment : null;
  const changed = sql`(m.rating is distinct from ${rated.rating} or m.comment is distinct from ${comment}::text)`;
  const updated = rowsOf<{ id: number }>(
    await deps.db.execute(sql`
    update ${messages} m set rating = ${rated.rating}, comment = ${comment}, rated_at = now(),
      -- A rating or comment that says something new is new feedback: the answer is back in the
      -- team's queue even if an operator had reviewed what the visitor said before.
      reviewed = m.reviewed and not ${changed},
      reviewed_at = case when ${changed} then null else m.reviewed_at end,
      reviewed_by = case when ${changed} then null else m.reviewed_by end
    from ${conversations} c
    where m.id = ${rated.messageId} and m.conversation_id = ${rated.conversationId}::uuid and m.role = 'assistant'
      and c.id = m.conversation_id and c.app_id = ${scope.appId} and c.environment = ${scope.environment}
    returning m.id`),
  );
  if (!updated.length) {
    // Read only when nothing was rated, to say why: a question of this very conversation is the
    // visitor's own, and saying so reveals nothing.
    const [own] = rowsOf<{ role: string }>(
      await deps.db.execute(sql`
      select m.role from ${messages} m join ${conversations} c on c.id = m.conversation_id
      where m.id = ${rated.messageId} and m.conversation_id = ${rated.conversationId}::uuid
        and c.app_id = ${scope.appId} and c.environment = ${scope.environment}`),
    );
    if (own) throw new HttpError(422, ONLY_ANSWERS);
    throw notFound(NO_SUCH_ANSWER);
  }
  await deps.db.execute(
    sql`update ${conversations} set ${ratingCountsOf(sql`${rated.conversationId}::uuid`)} where id = ${rated.conversationId}::uuid`,
  );
}

/** `POST /v1/chat/feedback`: public like /v1/chat (its CORS and body limit are set in publicChatCors), and limited the same way. */
export function chatFeedbackRoutes(route: RouteBuilder, limiter: RateLimiter, unknownKeys: UnknownKeyLimit) {
  route({
    method: "post",
    path: FEEDBACK_PATH,
    tag: "Chat",
    auth: "public",
    summary:
      "A visitor rates one answer of their conversation (thumbs up or down, with an optional comment on a thumbs down); a second " +
      "rating replaces the first. Open to any origin for a valid embed key; limited per key and visitor address like /v1/chat.",
    body: FeedbackRequest,
    response: FeedbackResult,
    handler: async ({ body, c, deps }) => {
      const scope = await unknownKeys.scopeOf(body.key, visitorOf(c), (key) => resolveEmbedKey(key, deps));
      const visitorKey = `${body.key}\n${visitorOf(c)}`;
      if (!limiter.allow(visitorKey)) {
        throw new TooManyRequests(
          limiter.retryAfterSeconds(visitorKey),
          "Too many ratings at once; wait a minute and try again",
        );
      }
      await rateAnswer(
        {
          conversationId: body.conversation_id,
          messageId: body.message_id,
          rating: body.rating,
          comment: body.comment,
        },
        scope,
        deps,
      );
      return { message: "Thank you for your feedback", rating: body.rating };
    },
  });
}
