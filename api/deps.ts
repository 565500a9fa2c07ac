import type { ApiConfig } from "./config";
import type { Database } from "./db/client";
import type { JobQueue } from "./jobs/job-queue";
import type { ObjectStorage } from "./storage/storage";

export interface Logger {
  info: (message: string, ...rest: unknown[]) => void;
  warn: (message: string, ...rest: unknown[]) => void;
  error: (message: string, ...rest: unknown[]) => void;
}

/** Everything a route or job handler needs, built once by the composition root. */
export interface ApiDeps {
  db: Database;
  config: ApiConfig;
  jobs: JobQueue;
  storage: ObjectStorage;
  log: Logger;
}

/** A job handler's deps: `workerId` names this process's lease in every claim it makes (api/jobs/leases.ts). */
export type WorkerDeps = ApiDeps & { workerId: string };

export const consoleLogger: Logger = {
  info: (m, ...r) => console.log(`[api] ${m}`, ...r),
  warn: (m, ...r) => console.warn(`[api] ${m}`, ...r),
  error: (m, ...r) => console.error(`[api] ${m}`, ...r),
};
