import {
  Agent, AgentLogoUpload, AppsList, AppUpdateResult, AppUsersList, AppUsersUpsertResult, ClientApp, DownloadLink, ExportFiles,
  ExportResult, ImportResult, JobCommandResult, JobRecord, JobsList, LatestFiles, QueuesList, UploadedFiles, UserInfo, UsersList,
  UsersUpsertResult,
  type AgentInput, type AppInput, type AppUsersUpsertBody, type JobsQuery, type UsersUpsertBody,
} from "../../../contract";
import type { ApiClient } from "./client.server";

/** Typed calls per resource: loaders and actions use these, never raw paths. */
export const getUserInfo = (api: ApiClient) => api.get(UserInfo, "/v1/users/get_info");

/** The spec's client search helper sends its term as `saerch`; callers just say `search`. */
export const listActiveApps = async (api: ApiClient, search?: string) =>
  (await api.get(AppsList, "/v1/apps", { status: "active", saerch: search })).apps;

export const appsApi = {
  create: (api: ApiClient, input: AppInput) => api.post(ClientApp, "/v1/apps", input),
  update: async (api: ApiClient, appId: number, input: AppInput) => (await api.put(AppUpdateResult, `/v1/apps/${appId}`, input)).response,
  /** Uploads logo files (`files[]`); answers their URLs. */
  uploadLogos: async (api: ApiClient, files: File[]) => {
    const form = new FormData();
    for (const file of files) form.append("files[]", file);
    return api.post(UploadedFiles, "/v1/apps/logo_upload", form);
  },
  exportApp: (api: ApiClient, appId: number) => api.post(ExportResult, `/v1/apps/${appId}/exports/export`),
  exportFiles: async (api: ApiClient) => (await api.get(ExportFiles, "/v1/export_files")).files,
  importFromFile: (api: ApiClient, fileName: string) => api.post(ImportResult, "/v1/import_from_file", { file_name: fileName }),
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
  upsertForApp: (api: ApiClient, appId: number, body: AppUsersUpsertBody) => api.post(AppUsersUpsertResult, `/v1/apps/${appId}/users/upsert`, body),
};

export const downloadsApi = {
  latest: async (api: ApiClient, appId: number) => (await api.get(LatestFiles, "/v1/admin_downloads/latest_files", { app_id: appId })).files,
  link: (api: ApiClient, fileKey: string) => api.post(DownloadLink, "/v1/admin_downloads/download", { file_key: fileKey }),
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
  run: (api: ApiClient, queue: string) => api.post(JobCommandResult, `/v1/jobs/${encodeURIComponent(queue)}/run`, { data: {} }),
};
