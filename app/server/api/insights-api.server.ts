import {
  InsightExportResult,
  Insights,
  UserProfileDeleted,
  UserProfileDetail,
  UserProfilesList,
  type InsightChart,
  type InsightsQuery,
  type UserProfilesQuery,
} from "@contract";
import type { ApiClient } from "./client.server";

/** Business Insights and the user profile store. */
export const insightsApi = {
  insights: (api: ApiClient, appId: number, query: InsightsQuery) =>
    api.get(Insights, `/v1/apps/${appId}/insights`, query),
  exportChart: (api: ApiClient, appId: number, chart: InsightChart, query: InsightsQuery) =>
    api.post(InsightExportResult, `/v1/apps/${appId}/insights/export`, { ...query, chart }),
  profiles: (api: ApiClient, appId: number, query: UserProfilesQuery) =>
    api.get(UserProfilesList, `/v1/apps/${appId}/user_profiles`, query),
  profile: (api: ApiClient, appId: number, conversationId: string) =>
    api.get(UserProfileDetail, `/v1/apps/${appId}/user_profiles/${conversationId}`),
  deleteProfile: (api: ApiClient, appId: number, conversationId: string) =>
    api.call(UserProfileDeleted, "DELETE", `/v1/apps/${appId}/user_profiles/${conversationId}`),
};
