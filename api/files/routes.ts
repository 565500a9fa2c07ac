import { asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import {
  AppIdQuery,
  CompleteUploadBody,
  CompleteUploadResult,
  FileChunks,
  FileChunksQuery,
  FileTagsBody,
  FilesList,
  FilesQuery,
  IdParam,
  isPdfName,
  KnowledgeFile,
  OkResult,
  PresignBody,
  PresignQuery,
  PresignResult,
  cleanFileName,
} from "@contract";
import { requireApp, requireFound } from "../auth/permissions";
import type { Caller } from "../auth/caller";
import { chunks, knowledgeFiles } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { recordChange } from "../history/record";
import { filesChange } from "./file-change";
import { acceptUpload, deleteFileBytes, deleteFileRows, UploadRejected, waitForAcceptance } from "./pipeline";
import { describeFile, getFile, listFiles, nameKey, namesTaken, newUploadKey, signedUploadLink } from "./store";
import { queueRunsAfterChange } from "../testing/auto-runs";
import type { StorageWrites } from "../http/storage-writes";

const FileParams = z.object({ id: IdParam });
/** Chunks a page of `GET /v1/files/:id/chunks` when a page is asked for without its size. */
const FILE_CHUNKS_PAGE_SIZE = 100;

/** The first key of the advisory lock registering a client's files holds (the second is the client's id). */
const FILE_NAMES_LOCK = 4_210_518;

/** The file, if it belongs to `appId` and the caller may act on that client; 404 otherwise. */
async function requireFile(
  fileId: number,
  appId: number,
  caller: Caller,
  capability: "read" | "configure",
  deps: Pick<ApiDeps, "db">,
) {
  requireApp(caller, appId, capability);
  const file = await getFile(fileId, deps);
  if (!file || file.appId !== appId) throw notFound("File not found");
  return file;
}

export function fileRoutes(route: RouteBuilder, storageWrites: StorageWrites) {
  route({
    method: "get",
    path: "/v1/files",
    tag: "Knowledge files",
    summary:
      "The client's uploaded files, newest first; `search` matches part of a name, `id` finds one file. With `page` (from 1) one page of `page_size` files (10 unless said); `total` counts them all.",
    query: FilesQuery,
    response: FilesList,
    handler: async ({ query, caller, deps }) => {
      requireApp(caller, query.app_id);
      const page = query.page ? { page: query.page, pageSize: query.page_size ?? 10 } : undefined;
      return listFiles(query.app_id, { search: query.search, id: query.id }, deps, page);
    },
  });

  route({
    method: "patch",
    path: "/v1/files/:id",
    tag: "Knowledge files",
    summary: "Sets a file's tags (sandbox, production): which environments may answer from it.",
    params: FileParams,
    body: FileTagsBody,
    response: KnowledgeFile,
    handler: async ({ params, body, caller, deps }) => {
      const file = await requireFile(params.id, body.app_id, caller, "configure", deps);
      const tags = [...new Set(body.tags)];
      await recordChange(deps, caller, filesChange(file.appId, [file.id]), (db) =>
        db.update(knowledgeFiles).set({ tags, updatedAt: new Date() }).where(eq(knowledgeFiles.id, params.id)),
      );
      // Tags decide which environments a file answers in.
      if (JSON.stringify(file.tags) !== JSON.stringify(tags))
        await queueRunsAfterChange(file.appId, "every agent", "file tags changed", deps);
      return (await describeFile(params.id, deps))!;
    },
  });

  route({
    method: "delete",
    path: "/v1/files/:id",
    tag: "Knowledge files",
    summary: "Deletes a file, its chunks and its stored bytes.",
    params: FileParams,
    query: AppIdQuery,
    response: OkResult,
    handler: async ({ params, query, caller, deps }) => {
      const file = await requireFile(params.id, query.app_id, caller, "configure", deps);
      // The bytes go once the row's removal, and its History entry, are committed.
      await recordChange(deps, caller, filesChange(file.appId, [file.id]), (db) => deleteFileRows([file], db));
      await deleteFileBytes([file], deps);
      return { message: `Deleted ${file.fileName}` };
    },
  });

  route({
    method: "post",
    path: "/v1/files/presigned_urls",
    tag: "Knowledge files",
    summary:
      "Registers PDFs to upload and answers, per file, a link that accepts a PUT of its bytes (Content-Type application/pdf) for 15 minutes. A name that is not a PDF's, that one of the client's files already has (in any case), or that is given twice is refused as file_names.<n>, and then nothing is registered. A failed upload of the name, and one the caller began and never completed (quiet for 30 s, its bytes not being checked), is replaced.",
    query: PresignQuery,
    body: PresignBody,
    response: PresignResult,
    handler: async ({ query, body, caller, deps }) => {
      requireApp(caller, query.app_id, "configure");
      await storageWrites.take(caller, body.file_names.length);
      const names = body.file_names.map(cleanFileName);
      const created = await deps.db.transaction(async (tx) => {
        // One registration of a client's files at a time, so two uploads cannot both take a name.
        await tx.execute(sql`select pg_advisory_xact_lock(${FILE_NAMES_LOCK}, ${query.app_id})`);
        const { taken, replaced } = await namesTaken(query.app_id, names, caller.id, { db: tx });
        const errors: Record<string, string[]> = {};
        const inThisUpload = new Set<string>();
        names.forEach((name, i) => {
          const key = nameKey(name);
          if (!name) errors[`file_names.${i}`] = ["A file name is required"];
          else if (!isPdfName(name)) errors[`file_names.${i}`] = [`${name} is not a PDF; only PDF files are accepted`];
          else if (taken.has(key)) errors[`file_names.${i}`] = [taken.get(key)!];
          else if (inThisUpload.has(key))
            errors[`file_names.${i}`] = [`Another file of this upload is also named ${name}`];
          inThisUpload.add(key);
        });
        if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0][0], errors);
        if (replaced.length)
          await tx.delete(knowledgeFiles).where(
            inArray(
              knowledgeFiles.id,
              replaced.map((file) => file.id),
            ),
          );
        const inserted = await tx
          .insert(knowledgeFiles)
          .values(
            names.map((fileName) => ({
              appId: query.app_id,
              fileName,
              uploadKey: newUploadKey(query.app_id, fileName),
              addedBy: caller.id,
            })),
          )
          .returning();
        return { inserted, replaced };
      });
      // Bytes that reached a replaced upload's link (its completion lost) go with it.
      for (const file of created.replaced) await deps.storage.delete(file.uploadKey);
      const presigned = await Promise.all(
        created.inserted.map(async (file) => {
          const link = await signedUploadLink(file.uploadKey, deps);
          return {
            url: link.url,
            url_id: file.id,
            s3_path: file.uploadKey,
            file_name: file.fileName,
            expires_at: link.expiresAt.toISOString(),
          };
        }),
      );
      return { presigned_urls: presigned };
    },
  });

  route({
    method: "post",
    path: "/v1/files/complete_upload",
    tag: "Knowledge files",
    summary:
      "Checks an uploaded file (present, size cap, a PDF by content) and queues it for indexing; a rejected file is marked failed_to_upload with the reason.",
    body: CompleteUploadBody,
    response: CompleteUploadResult,
    handler: async ({ body, caller, deps }) => {
      const found = await getFile(body.url_id, deps);
      const file = requireFound(
        caller,
        found?.uploadKey === body.s3_path ? found : undefined,
        "Upload not found",
        "configure",
      );
      if (file.status === "pending_upload") {
        let accepted: boolean;
        try {
          accepted = await acceptUpload(file, caller, deps);
        } catch (error) {
          if (error instanceof UploadRejected) throw badRequest(error.message, { file: [error.message] });
          throw error;
        }
        // A double submit: the other request checks the bytes; this one answers its outcome.
        if (accepted) await deps.jobs.send("file-index", { fileId: file.id });
        else await waitForAcceptance(file.id, deps);
      }
      const described = await describeFile(file.id, deps);
      if (!described) throw notFound(`${file.fileName} was deleted while it was uploaded`);
      if (described.status === "failed_to_upload")
        throw badRequest(described.error_message ?? "The upload failed", {
          file: [described.error_message ?? "The upload failed"],
        });
      return { message: `${file.fileName} uploaded; indexing has started`, file: described };
    },
  });

  route({
    method: "get",
    path: "/v1/files/:id/chunks",
    tag: "Knowledge files",
    summary: `The stored chunks of one file, in order. With \`page\` (from 1) one page of \`page_size\` chunks (${FILE_CHUNKS_PAGE_SIZE} unless said); \`total\` counts them all.`,
    params: FileParams,
    query: FileChunksQuery,
    response: FileChunks,
    handler: async ({ params, query, caller, deps }) => {
      const file = await requireFile(params.id, query.app_id, caller, "read", deps);
      const pageSize = query.page_size ?? FILE_CHUNKS_PAGE_SIZE;
      // Position, then id: one writer numbers a file's chunks, and the id keeps the order whole regardless.
      const ordered = deps.db
        .select({ position: chunks.position, headingPath: chunks.headingPath, text: chunks.text })
        .from(chunks)
        .where(eq(chunks.fileId, file.id))
        .orderBy(asc(chunks.position), asc(chunks.id))
        .$dynamic();
      const [list, total] = await Promise.all([
        query.page ? ordered.limit(pageSize).offset((query.page - 1) * pageSize) : ordered,
        query.page ? deps.db.$count(chunks, eq(chunks.fileId, file.id)) : null,
      ]);
      return {
        file_name: file.fileName,
        chunks: list.map((c) => ({ position: c.position, heading_path: c.headingPath, text: c.text })),
        total: total ?? list.length,
      };
    },
  });
}
