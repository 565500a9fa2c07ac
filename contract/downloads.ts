import { z } from "zod";
import { IdParam } from "./common";
export * from "./values/downloads";

export const AdminFile = z.object({
  filename: z.string(),
  file_type: z.string(),
  formatted_timestamp: z.string(),
  size: z.number().int(),
  key: z.string(),
});
export type AdminFile = z.infer<typeof AdminFile>;

export const LatestFilesQuery = z.object({ app_id: IdParam });
/** The client's newest file of each type, by type. */
export const LatestFiles = z.object({ files: z.record(z.string(), AdminFile) });
export type LatestFiles = z.infer<typeof LatestFiles>;

/** Longer than any key the storage gives (a folder, a client's code, a file name and a timestamp). */
const FILE_KEY_MAX_CHARS = 1_000;
export const DownloadBody = z.object({ file_key: z.string().min(1).max(FILE_KEY_MAX_CHARS) });
export const DownloadLink = z.object({ download_url: z.string(), url: z.string(), expires_at: z.string() });
export type DownloadLink = z.infer<typeof DownloadLink>;
