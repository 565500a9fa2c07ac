import { sql } from "drizzle-orm";
import { z } from "zod";
import { ConversationDetail, ConversationList, ConversationsQuery, IdParam, ReviewBody, ReviewResult } from "@contract";
import { requireApp } from "../auth/permissions";
import { rowsOf } from "../db/rows";
import { badRequest, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { conversationDetail, listConversations } from "./queries";
import { ratingCountsOf } from "./rating-counts";

const ConversationParams = z.object({ appId: IdParam, conversationId: z.uuid({ error: "Not a conversation id" }) });
const MessageParams = ConversationParams.extend({ messageId: IdParam });

/** One answer for every id the caller may not see: nothing tells another client's conversations from none. */
const CONVERSATION_NOT_FOUND = "Conversation not found";
const MESSAGE_NOT_FOUND = "Message not found in this conversation";

export function conversationRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/apps/:appId/conversations",
    tag: "Conversations",
    summary:
      "The client's conversations (or one trigger point's), latest first by default: each with its questions, last question, outcomes, the visitor's rating, whether a lead was captured and whether it was reviewed. Filters combine.",
    params: z.object({ appId: IdParam }),
    query: ConversationsQuery,
    response: ConversationList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      return listConversations(params.appId, query, deps);
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/conversations/:conversationId",
    tag: "Conversations",
    summary:
      "A conversation's messages in order; each answer with its sources, the visitor's rating and comment, whether it was reviewed, and the trace recorded when it was given.",
    params: ConversationParams,
    response: ConversationDetail,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      const detail = await conversationDetail(params.appId, params.conversationId, deps);
      if (!detail) throw notFound(CONVERSATION_NOT_FOUND);
      return detail;
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/conversations/:conversationId/messages/:messageId/review",
    tag: "Conversations",
    summary: "Marks an answer reviewed (or not), so a team can work through the answers visitors rated unhelpful.",
    params: MessageParams,
    body: ReviewBody,
    response: ReviewResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const [message] = rowsOf<{ role: string }>(
        await deps.db.execute(sql`
        select role from messages
        where id = ${params.messageId} and conversation_id = ${params.conversationId}::uuid and app_id = ${params.appId}`),
      );
      if (!message) throw notFound(MESSAGE_NOT_FOUND);
      if (message.role !== "assistant") throw badRequest("Only answers can be reviewed");
      await deps.db.transaction(async (tx) => {
        await tx.execute(sql`
          update messages set reviewed = ${body.reviewed}, reviewed_at = ${body.reviewed ? sql`now()` : null}, reviewed_by = ${body.reviewed ? caller.email : null}
          where id = ${params.messageId}`);
        await tx.execute(
          sql`update conversations set ${ratingCountsOf(sql`${params.conversationId}::uuid`)} where id = ${params.conversationId}::uuid`,
        );
      });
      return { message: body.reviewed ? "Marked reviewed" : "Marked not reviewed", reviewed: body.reviewed };
    },
  });
}
