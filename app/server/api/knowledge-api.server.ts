import {
  BulkCreateResult,
  CachedChunks,
  OkResult,
  StatusCounts,
  UpdateStatusResult,
  UrlRow,
  UrlsList,
  WebsitesList,
  WebsitesUpsertResult,
  type UrlsQuery,
  type WebsiteInput,
} from "@contract";
import type { ApiClient } from "./client.server";

/** A client's websites and their URLs. */
export const knowledgeApi = {
  websites: (
    api: ApiClient,
    appId: number,
    query: { page?: number; page_size?: number; query?: string; app_name?: string },
  ) => api.get(WebsitesList, `/v1/apps/${appId}/websites`, query),
  saveWebsites: (api: ApiClient, appId: number, websites: WebsiteInput[]) =>
    api.post(WebsitesUpsertResult, `/v1/apps/${appId}/websites/create_and_update`, { websites }),
  /** Without urlIds the whole website is targeted (the row menu). */
  updateWebsiteUrls: (
    api: ApiClient,
    appId: number,
    websiteId: number,
    body: { status: string; url_ids?: number[]; force_index?: boolean },
  ) => api.post(UpdateStatusResult, `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, body),
  updateUrls: (api: ApiClient, appId: number, body: { status: string; url_ids: number[]; force_index?: boolean }) =>
    api.post(UpdateStatusResult, `/v1/apps/${appId}/urls/update_status`, body),
  refreshSitemap: (api: ApiClient, websiteId: number) => api.post(OkResult, "/sitemap_refresh", { id: websiteId }),
  statusCounts: (api: ApiClient, appId: number) => api.get(StatusCounts, `/v1/apps/${appId}/urls/status_counts`),
  /** One website's URLs; statuses and review statuses travel comma-separated. */
  websiteUrls: (api: ApiClient, appId: number, websiteId: number, query: UrlsQuery) =>
    api.get(
      UrlsList,
      `/v1/apps/${appId}/websites/${websiteId}/urls`,
      query as Record<string, string | number | string[] | undefined>,
    ),
  allUrls: (api: ApiClient, appId: number, query: UrlsQuery) =>
    api.get(UrlsList, `/v1/apps/${appId}/urls`, query as Record<string, string | number | string[] | undefined>),
  addUrls: (api: ApiClient, appId: number, websiteId: number, urls: string[]) =>
    api.post(BulkCreateResult, `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, { urls }),
  setRefreshDays: (api: ApiClient, appId: number, websiteId: number, urlId: number, refreshDays: number) =>
    api.put(UrlRow, `/v1/apps/${appId}/websites/${websiteId}/urls/${urlId}`, { url: { refresh_days: refreshDays } }),
  cachedChunks: (api: ApiClient, appId: number, websiteId: number, url: string) =>
    api.post(CachedChunks, `/v1/apps/${appId}/websites/${websiteId}/urls/fetch_cached_chunks`, { appId, url }),
};
