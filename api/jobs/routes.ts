import { z } from "zod";
import {
  JOB_NAME_MAX_CHARS,
  JobCommandResult,
  JobRecord,
  JobsList,
  JobsQuery,
  QueuesList,
  RunJobBody,
} from "@contract";
import { requireStaff } from "../auth/permissions";
import type { RouteBuilder } from "../http/route";

const JobParams = z.object({ queue: z.string().max(JOB_NAME_MAX_CHARS), id: z.string().max(JOB_NAME_MAX_CHARS) });

/** The background-jobs dashboard and queue console (staff only: jobs span every client). */
export function jobRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/jobs/queues",
    tag: "Jobs",
    summary: "Every queue with its job counts by state and its schedule.",
    response: QueuesList,
    handler: async ({ caller, deps }) => {
      requireStaff(caller);
      return { queues: await deps.jobs.listQueues() };
    },
  });
  route({
    method: "get",
    path: "/v1/jobs",
    tag: "Jobs",
    summary: "Recent jobs, newest first, optionally of one queue and state.",
    query: JobsQuery,
    response: JobsList,
    handler: async ({ caller, query, deps }) => {
      requireStaff(caller);
      return deps.jobs.listJobs(query);
    },
  });
  route({
    method: "get",
    path: "/v1/jobs/:queue/:id",
    tag: "Jobs",
    summary: "One job with its payload, output (or error) and retries.",
    params: JobParams,
    response: JobRecord,
    handler: async ({ caller, params, deps }) => {
      requireStaff(caller);
      return deps.jobs.getJob(params.queue, params.id);
    },
  });
  route({
    method: "post",
    path: "/v1/jobs/:queue/:id/retry",
    tag: "Jobs",
    summary: "Queues a failed or cancelled job again.",
    params: JobParams,
    response: JobCommandResult,
    handler: async ({ caller, params, deps }) => {
      requireStaff(caller);
      await deps.jobs.retry(params.queue, params.id);
      return { message: "Job queued again", id: params.id };
    },
  });
  route({
    method: "post",
    path: "/v1/jobs/:queue/:id/cancel",
    tag: "Jobs",
    summary: "Cancels a waiting or running job.",
    params: JobParams,
    response: JobCommandResult,
    handler: async ({ caller, params, deps }) => {
      requireStaff(caller);
      await deps.jobs.cancel(params.queue, params.id);
      return { message: "Job cancelled", id: params.id };
    },
  });
  route({
    method: "post",
    path: "/v1/jobs/:queue/run",
    tag: "Jobs",
    summary: "Enqueues a job of this queue now.",
    params: z.object({ queue: z.string() }),
    body: RunJobBody,
    response: JobCommandResult,
    status: 202,
    handler: async ({ caller, params, body, deps }) => {
      requireStaff(caller);
      const id = await deps.jobs.runNow(params.queue, body.data);
      return { message: "Job queued", id };
    },
  });
}
