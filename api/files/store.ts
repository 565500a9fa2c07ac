import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { FILE_UPLOAD_CONTENT_TYPE, type FileStatus, type KnowledgeFile } from "@contract";
import { appUsers, knowledgeFiles, users } from "../db/schema";
import { membershipOf, nameInClient } from "../users/member-name";
import type { ApiDeps } from "../deps";
import { containing } from "../db/like";

export type FileRecord = typeof knowledgeFiles.$inferSelect;
type StoreDeps = Pick<ApiDeps, "db" | "storage">;

/** How long the list's links to a PDF work, and how long an upload link stays open. */
const VIEW_LINK_SECONDS = 60 * 60;
const UPLOAD_LINK_SECONDS = 15 * 60;

/**
 * The last part of a storage key for a file name: ASCII letters, digits, dots, dashes and
 * underscores only, so a key is always safe whatever the name was (the listed name keeps the rest).
 */
export function storageNameOf(fileName: string) {
  const ascii = fileName
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/\.{2,}/g, ".");
  const stem =
    ascii
      .replace(/\.pdf$/i, "")
      .replace(/^[^A-Za-z0-9]+/, "")
      .slice(0, 100) || "file";
  return `${stem}.pdf`;
}

export const newUploadKey = (appId: number, fileName: string) =>
  `uploads/${appId}/${randomBytes(12).toString("hex")}/${storageNameOf(fileName)}`;
export const finalKeyOf = (file: FileRecord) => `apps/${file.appId}/files/${file.id}/${storageNameOf(file.fileName)}`;

/**
 * Whether a signed upload link may still write: a knowledge file's link works only while its file
 * waits for the bytes. Once completed (accepted and moved, or rejected) the link is spent, so a
 * leaked link cannot store anything more. Other keys keep plain signed-link rules.
 */
export async function uploadStillOpen(key: string, deps: Pick<ApiDeps, "db">) {
  if (!/^uploads\/\d+\/[0-9a-f]{24}\//.test(key)) return true;
  const [waiting] = await deps.db
    .select({ id: knowledgeFiles.id })
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.uploadKey, key), eq(knowledgeFiles.status, "pending_upload")))
    .limit(1);
  return Boolean(waiting);
}

export async function signedUploadLink(key: string, deps: StoreDeps) {
  return deps.storage.signedUploadUrl(key, {
    contentType: FILE_UPLOAD_CONTENT_TYPE,
    expiresInSeconds: UPLOAD_LINK_SECONDS,
  });
}

interface ListedFile {
  file: FileRecord;
  addedBy: string | null;
  chunksCount: number;
}

async function toKnowledgeFile({ file, addedBy, chunksCount }: ListedFile, deps: StoreDeps): Promise<KnowledgeFile> {
  const link = file.storageKey
    ? await deps.storage.signedDownloadUrl(file.storageKey, file.fileName, {
        inline: true,
        expiresInSeconds: VIEW_LINK_SECONDS,
      })
    : null;
  return {
    id: file.id,
    app_id: file.appId,
    file_name: file.fileName,
    url: link?.url ?? "",
    status: file.status as FileStatus,
    tags: file.tags as KnowledgeFile["tags"],
    added_by: addedBy,
    size: file.size,
    page_count: file.pageCount,
    title: file.title,
    error_message: file.errorMessage,
    chunks_count: chunksCount,
    indexed_at: file.indexedAt?.toISOString() ?? null,
    created_at: file.createdAt.toISOString(),
    updated_at: file.updatedAt.toISOString(),
  };
}

const listedColumns = {
  file: knowledgeFiles,
  addedBy: sql<string | null>`nullif(coalesce(nullif(${nameInClient}, ''), ${users.email}), '')`,
  // Outer column named with its table: Drizzle leaves it bare when a select has no join.
  chunksCount: sql<number>`(select count(*)::int from chunks chunk where chunk.file_id = "files"."id")`,
};

/**
 * A client's files, newest first, optionally those whose name contains `search` (or the one of
 * `id`): one page of them
 * when `page` is given (a client may hold thousands), with how many there are in all.
 */
export async function listFiles(
  appId: number,
  { search, id }: { search?: string; id?: number },
  deps: StoreDeps,
  page?: { page: number; pageSize: number },
) {
  const found = and(
    eq(knowledgeFiles.appId, appId),
    // Composed on both sides, so a part of a name pasted from macOS (decomposed) finds it too.
    search ? sql`normalize(${knowledgeFiles.fileName}, NFC) ilike ${containing(search.normalize("NFC"))}` : undefined,
    id !== undefined ? eq(knowledgeFiles.id, id) : undefined,
  );
  const listed = deps.db
    .select(listedColumns)
    .from(knowledgeFiles)
    .leftJoin(users, eq(users.id, knowledgeFiles.addedBy))
    .leftJoin(appUsers, membershipOf(knowledgeFiles.appId, knowledgeFiles.addedBy))
    .where(found)
    .orderBy(desc(knowledgeFiles.id));
  const rows = page ? await listed.limit(page.pageSize).offset((page.page - 1) * page.pageSize) : await listed;
  const total =
    page && (rows.length === page.pageSize || page.page > 1)
      ? (
          await deps.db
            .select({ n: sql<number>`count(*)::int` })
            .from(knowledgeFiles)
            .where(found)
        )[0].n
      : rows.length;
  return { files: await Promise.all(rows.map((row) => toKnowledgeFile(row, deps))), total };
}

export async function describeFile(fileId: number, deps: StoreDeps) {
  const [row] = await deps.db
    .select(listedColumns)
    .from(knowledgeFiles)
    .leftJoin(users, eq(users.id, knowledgeFiles.addedBy))
    .leftJoin(appUsers, membershipOf(knowledgeFiles.appId, knowledgeFiles.addedBy))
    .where(eq(knowledgeFiles.id, fileId));
  return row ? toKnowledgeFile(row, deps) : null;
}

/**
 * Files are told apart by name: test questions and the Lower and Exclude rules name them, matching
 * any case. So a client has one file of a name, whatever its case, and composed or decomposed.
 */
export const nameKey = (fileName: string) => fileName.normalize("NFC").toLowerCase();

export const alreadyUploaded = (fileName: string) =>
  `A file named ${fileName} is already uploaded; delete it first to upload a new version`;

/**
 * How long a request checking an upload holds the file. A double submit can reach two web
 * processes at once; the second waits for the first's outcome instead of moving the same bytes
 * again. A holder that died is replaced after this long.
 */
export const ACCEPTANCE_HOLD_SECONDS = 120;

/**
 * How long an upload that was never completed keeps its name from its own uploader after its last
 * sign of life (registered, or its bytes checked). Long enough that the same upload sent twice at
 * once (two tabs, a form sent again) does not take the first one's place; short enough that an
 * upload cut off by a process killed under it can be sent again as soon as the server is back.
 */
const UPLOAD_RETRY_SECONDS = 30;

const stillUploading = (fileName: string, seconds: number) =>
  `${fileName} is still being uploaded; if that upload stopped, try again in ${seconds} seconds`;

/**
 * Which of `names` the client's files already have (by nameKey), each with why the name is taken,
 * and the files a new upload of those names takes the place of:
 * - a failed upload never added its file (its bytes were refused or never came, and are gone);
 * - an upload `uploader` began and never completed, quiet for UPLOAD_RETRY_SECONDS and not being
 *   checked: its bytes never came or its completion was lost (a process killed under it), and its
 *   uploader is sending it again. Someone else's keeps the name (they may still be sending it).
 * The caller holds the client's registration lock, so two registrations cannot both take a place.
 */
export async function namesTaken(appId: number, names: string[], uploader: number, deps: Pick<ApiDeps, "db">) {
  const keys = new Set(names.map(nameKey));
  const taken = new Map<string, string>();
  const replaced: { id: number; uploadKey: string }[] = [];
  // Compared here rather than by the database's lower(), which leaves letters beyond ASCII as they
  // are under some locales. A client's uploads are documents added by hand: their names are few.
  const rows = await deps.db
    .select({
      id: knowledgeFiles.id,
      fileName: knowledgeFiles.fileName,
      status: knowledgeFiles.status,
      uploadKey: knowledgeFiles.uploadKey,
      addedBy: knowledgeFiles.addedBy,
      // Seconds until a pending upload may be replaced, judged on the database clock as a hold is.
      retryIn: sql<number>`greatest(0, ceil(extract(epoch from ${knowledgeFiles.updatedAt} + make_interval(secs => case when ${knowledgeFiles.claimedBy} is null then ${UPLOAD_RETRY_SECONDS}::int else ${ACCEPTANCE_HOLD_SECONDS}::int end) - now())))::int`,
    })
    .from(knowledgeFiles)
    .where(eq(knowledgeFiles.appId, appId))
    .orderBy(asc(knowledgeFiles.id));
  for (const { id, fileName, status, uploadKey, addedBy, retryIn } of rows) {
    const key = nameKey(fileName);
    if (!keys.has(key)) continue;
    if (status === "failed_to_upload") replaced.push({ id, uploadKey });
    else if (status === "pending_upload" && addedBy === uploader) {
      if (Number(retryIn) === 0) replaced.push({ id, uploadKey });
      else if (!taken.has(key)) taken.set(key, stillUploading(fileName, Number(retryIn)));
    } else taken.set(key, alreadyUploaded(fileName));
  }
  return { taken, replaced };
}

export async function getFile(fileId: number, deps: Pick<ApiDeps, "db">) {
  const [file] = await deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, fileId));
  return file ?? null;
}

export async function setFileStatus(
  fileId: number,
  status: FileStatus,
  changes: Partial<FileRecord>,
  deps: Pick<ApiDeps, "db">,
) {
  await deps.db
    .update(knowledgeFiles)
    .set({ ...changes, status, updatedAt: new Date() })
    .where(eq(knowledgeFiles.id, fileId));
}
