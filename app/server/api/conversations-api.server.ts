import type { z } from "zod";
import { ConversationDetail, ConversationList, ReviewResult, type ConversationsQuery } from "@contract";
import type { ApiClient } from "./client.server";

/** The list's query as the contract reads it: every filter checked, the defaults filled in. */
export type ConversationsListQuery = z.output<typeof ConversationsQuery>;

/**
 * A client's conversations (`/v1/apps/{app_id}/conversations`): the filtered list, one
 * conversation with its messages and the traces recorded when its answers were given, and an
 * operator's review of an answer.
 */
export const conversationsApi = {
  list: (api: ApiClient, appId: number, query: ConversationsListQuery) =>
    api.get(ConversationList, `/v1/apps/${appId}/conversations`, { ...query }),
  detail: (api: ApiClient, appId: number, conversationId: string) =>
    api.get(ConversationDetail, `/v1/apps/${appId}/conversations/${encodeURIComponent(conversationId)}`),
  review: (api: ApiClient, appId: number, conversationId: string, messageId: number, reviewed: boolean) =>
    api.post(
      ReviewResult,
      `/v1/apps/${appId}/conversations/${encodeURIComponent(conversationId)}/messages/${messageId}/review`,
      { reviewed },
    ),
};
