import {
  Agent,
  AgentLogoUpload,
  AppsList,
  AppUpdateResult,
  AppUsersList,
  AppUsersUpsertResult,
  ClientApp,
  DownloadLink,
  ExportFiles,
  ExportResult,
  ImportResult,
  JobCommandResult,
  JobRecord,
  JobsList,
  LatestFiles,
  QueuesList,
  UploadedFiles,
  UserInfo,
  UsersList,
  UsersUpsertResult,
  CachedChunks,
  CompleteUploadResult,
  FileChunks,
  FilesList,
  KnowledgeFile,
  OkResult,
  PresignResult,
  StatusCounts,
  UpdateStatusResult,
  UrlRow,
  UrlsList,
  WebsitesList,
  WebsitesUpsertResult,
  type AgentInput,
  type AppInput,
  type AppUsersUpsertBody,
  type JobsQuery,
  type UrlsQuery,
  type UsersUpsertBody,
  type WebsiteInput,
} from "@contract";
import type { ApiClient } from "./client.server";

/** Typed calls per resource: loaders and actions use these, never raw paths. */
export const getUserInfo = (api: ApiClient) => api.get(UserInfo, "/v1/users/get_info");

/** The spec's client search helper sends its term as `saerch`; callers just say `search`. */
export const listActiveApps = async (api: ApiClient, search?: string) =>
  (await api.get(AppsList, "/v1/apps", { status: "active", saerch: search })).apps;

export const appsApi = {
  create: (api: ApiClient, input: AppInput) => api.post(ClientApp, "/v1/apps", input),
  update: async (api: ApiClient, appId: number, input: AppInput) =>
    (await api.put(AppUpdateResult, `/v1/apps/${appId}`, input)).response,
  /** Uploads logo files (`files[]`); answers their URLs. */
  uploadLogos: async (api: ApiClient, files: File[]) => {
    const form = new FormData();
    for (const file of files) form.append("files[]", file);
    return api.post(UploadedFiles, "/v1/apps/logo_upload", form);
  },
  exportApp: (api: ApiClient, appId: number) => api.post(ExportResult, `/v1/apps/${appId}/exports/export`),
  exportFiles: async (api: ApiClient) => (await api.get(ExportFiles, "/v1/export_files")).files,
  importFromFile: (api: ApiClient, fileName: string) =>
    api.post(ImportResult, "/v1/import_from_file", { file_name: fileName }),
};

export const agentsApi = {
  get: (api: ApiClient, appId: number, agentId: number) => api.get(Agent, `/v1/apps/${appId}/agents/${agentId}`),
  /** Creates (no id) or updates (with id). */
  save: (api: ApiClient, input: AgentInput) => api.post(Agent, `/v1/apps/${input.app_id}/agents/update_agents`, input),
  uploadLogo: async (api: ApiClient, appId: number, file: File) => {
    const form = new FormData();
    form.append("file", file);
    return (await api.post(AgentLogoUpload, `/v1/apps/${appId}/agents/logo_upload`, form)).url;
  },
};

export const usersApi = {
  list: (api: ApiClient) => api.get(UsersList, "/v1/users"),
  upsert: (api: ApiClient, body: UsersUpsertBody) => api.post(UsersUpsertResult, "/v1/users/upsert", body),
  listForApp: (api: ApiClient, appId: number) => api.get(AppUsersList, `/v1/apps/${appId}/users`),
  upsertForApp: (api: ApiClient, appId: number, body: AppUsersUpsertBody) =>
    api.post(AppUsersUpsertResult, `/v1/apps/${appId}/users/upsert`, body),
};

export const downloadsApi = {
  latest: async (api: ApiClient, appId: number) =>
    (await api.get(LatestFiles, "/v1/admin_downloads/latest_files", { app_id: appId })).files,
  link: (api: ApiClient, fileKey: string) =>
    api.post(DownloadLink, "/v1/admin_downloads/download", { file_key: fileKey }),
};

export const jobsApi = {
  queues: async (api: ApiClient) => (await api.get(QueuesList, "/v1/jobs/queues")).queues,
  list: (api: ApiClient, query: Partial<JobsQuery>) => api.get(JobsList, "/v1/jobs", query),
  get: (api: ApiClient, queue: string, id: string) =>
    api.get(JobRecord, `/v1/jobs/${encodeURIComponent(queue)}/${encodeURIComponent(id)}`),
  retry: (api: ApiClient, queue: string, id: string) =>
    api.post(JobCommandResult, `/v1/jobs/${encodeURIComponent(queue)}/${encodeURIComponent(id)}/retry`),
  cancel: (api: ApiClient, queue: string, id: string) =>
    api.post(JobCommandResult, `/v1/jobs/${encodeURIComponent(queue)}/${encodeURIComponent(id)}/cancel`),
  run: (api: ApiClient, queue: string) =>
    api.post(JobCommandResult, `/v1/jobs/${encodeURIComponent(queue)}/run`, { data: {} }),
};

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
    api.post(OkResult, `/v1/apps/${appId}/websites/${websiteId}/urls/bulk_create`, { urls }),
  setRefreshDays: (api: ApiClient, appId: number, websiteId: number, urlId: number, refreshDays: number) =>
    api.put(UrlRow, `/v1/apps/${appId}/websites/${websiteId}/urls/${urlId}`, { url: { refresh_days: refreshDays } }),
  cachedChunks: (api: ApiClient, appId: number, websiteId: number, url: string) =>
    api.post(CachedChunks, `/v1/apps/${appId}/websites/${websiteId}/urls/fetch_cached_chunks`, { appId, url }),
};

export const filesApi = {
  list: (api: ApiClient, appId: number, search?: string) => api.get(FilesList, "/v1/files", { app_id: appId, search }),
  setTags: (api: ApiClient, appId: number, fileId: number, tags: string[]) =>
    api.call(KnowledgeFile, "PATCH", `/v1/files/${fileId}`, { body: { app_id: appId, tags } }),
  remove: (api: ApiClient, appId: number, fileId: number) =>
    api.call(OkResult, "DELETE", `/v1/files/${fileId}`, { query: { app_id: appId } }),
  /** Registers files to upload; each answer carries the link its bytes are PUT to. */
  presign: (api: ApiClient, appId: number, userId: number, fileNames: string[]) =>
    api.call(PresignResult, "POST", "/v1/files/presigned_urls", {
      query: { app_id: appId, user_id: userId },
      body: { file_names: fileNames },
    }),
  completeUpload: (api: ApiClient, urlId: number, s3Path: string) =>
    api.post(CompleteUploadResult, "/v1/files/complete_upload", { url_id: urlId, s3_path: s3Path }),
  chunks: (api: ApiClient, appId: number, fileId: number) =>
    api.get(FileChunks, `/v1/files/${fileId}/chunks`, { app_id: appId }),
};
