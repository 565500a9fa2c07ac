import { AppsList, JobCommandResult, JobRecord, JobsList, QueuesList, UserInfo, type JobsQuery } from "../../../contract";
import type { ApiClient } from "./client.server";

/** Typed calls per resource: loaders and actions use these, never raw paths. */
export const getUserInfo = (api: ApiClient) => api.get(UserInfo, "/v1/users/get_info");

export const listActiveApps = async (api: ApiClient) => (await api.get(AppsList, "/v1/apps", { status: "active" })).apps;

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
