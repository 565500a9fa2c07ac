import { and, eq } from "drizzle-orm";
import type { FileStatus } from "@contract";
import type { Executor } from "../controls/scope";
import { knowledgeFiles } from "../db/schema";
import { changedFields } from "../history/describe";
import { FILE_LABELS } from "../history/readable/client";
import type { Change } from "../history/record";

/**
 * A file is in the knowledge store from the moment its upload is accepted until it is deleted,
 * whatever indexing makes of it since: a file waiting for its bytes, or whose bytes were refused,
 * was never added.
 */
const NOT_ADDED: readonly FileStatus[] = ["pending_upload", "failed_to_upload"];

/**
 * A file as the Files screen shows it and an operator changes it: its name, tags and size. Never
 * its storage keys, and nothing indexing changes (status, pages, chunks), so a job's work is not
 * a change of anyone's.
 */
async function fileState(appId: number, fileId: number, db: Executor) {
  const [row] = await db
    .select({
      fileName: knowledgeFiles.fileName,
      tags: knowledgeFiles.tags,
      size: knowledgeFiles.size,
      status: knowledgeFiles.status,
    })
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.appId, appId), eq(knowledgeFiles.id, fileId)));
  if (!row || NOT_ADDED.includes(row.status as FileStatus)) return null;
  return { file_name: row.fileName, tags: row.tags, size: row.size };
}

/** Files of a client whose upload completes, whose tags change or that are deleted: one target each, by id. */
export const filesChange = (appId: number, ids: number[]): Change => ({
  appId,
  kind: "file",
  targets: ids.map(String),
  read: (id, db) => fileState(appId, Number(id), db),
  summary: (_, before, after) => {
    const { file_name: name } = (after ?? before) as { file_name: string };
    if (!before) return `File ${name} added`;
    if (!after) return `File ${name} removed`;
    const labels = changedFields(before, after).map((field) => FILE_LABELS[field] ?? field.replace(/_/g, " "));
    return `File ${name}: ${labels.join(", ")} changed`;
  },
});
