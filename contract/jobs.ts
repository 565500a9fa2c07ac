import { z } from "zod";
import { pageNumber } from "./common";
import { JOB_STATES } from "./values/jobs";
export * from "./values/jobs";
export const JobState = z.enum(JOB_STATES);
export type JobState = z.infer<typeof JobState>;

export const QueueSummary = z.object({
  name: z.string(),
  description: z.string(),
  counts: z.record(JobState, z.number().int()),
  total: z.number().int(),
  schedule: z.string().nullable(),
  /** Whether the queue can run without a payload (the dashboard's "Run now"); the others run when their work is asked for. */
  runs_on_demand: z.boolean(),
});
export type QueueSummary = z.infer<typeof QueueSummary>;

export const JobRecord = z.object({
  id: z.string(),
  queue: z.string(),
  state: JobState,
  data: z.unknown(),
  output: z.unknown(),
  retry_count: z.number().int(),
  retry_limit: z.number().int(),
  created_on: z.string(),
  started_on: z.string().nullable(),
  completed_on: z.string().nullable(),
});
export type JobRecord = z.infer<typeof JobRecord>;

export const QueuesList = z.object({ queues: z.array(QueueSummary) });
export type QueuesList = z.infer<typeof QueuesList>;

/** Longer than any queue's name or job's id (a UUID). */
export const JOB_NAME_MAX_CHARS = 100;

export const JobsQuery = z.object({
  queue: z.string().max(JOB_NAME_MAX_CHARS).optional(),
  state: JobState.optional(),
  page: pageNumber(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type JobsQuery = z.infer<typeof JobsQuery>;

export const JobsList = z.object({
  jobs: z.array(JobRecord),
  total_count: z.number().int(),
  total_pages: z.number().int(),
  page: z.number().int(),
});
export type JobsList = z.infer<typeof JobsList>;

export const RunJobBody = z.object({ data: z.record(z.string(), z.unknown()).default({}) });
export type RunJobBody = z.infer<typeof RunJobBody>;

export const JobCommandResult = z.object({ message: z.string(), id: z.string().nullable() });
export type JobCommandResult = z.infer<typeof JobCommandResult>;
