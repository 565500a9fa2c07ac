import { JobCommandResult, JobRecord, JobsList, QueuesList, type JobsQuery } from "@contract";
import type { ApiClient } from "./client.server";

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
