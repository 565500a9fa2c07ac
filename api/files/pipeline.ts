import { createHash } from "node:crypto";
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { knowledgeFiles } from "../db/schema";
import type { ApiDeps } from "../deps";
import { chunkBlocks } from "../knowledge/chunk";
import { replaceChunks } from "../knowledge/chunk-store";
import { extractPdf } from "../knowledge/extract-pdf";
import { finalKeyOf, setFileStatus, type FileRecord } from "./store";
import { cutText } from "../../contract";

type PipelineDeps = Pick<ApiDeps, "db" | "storage" | "config" | "log">;

/** PDF readers accept the header anywhere in the first kilobyte; so do we, and nothing else. */
export function looksLikePdf(bytes: Uint8Array) {
  return Buffer.from(bytes.subarray(0, 1024)).includes("%PDF-");
}

export class UploadRejected extends Error {}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Takes in the bytes a browser PUT for a pending file: present, within the size cap and a PDF by
 * content. Accepted bytes move to a key no upload link can write, and the file waits for indexing;
 * rejected ones are deleted and the file says why.
 */
export async function acceptUpload(file: FileRecord, deps: PipelineDeps) {
  const stored = await deps.storage.head(file.uploadKey);
  if (!stored) throw new UploadRejected(`${file.fileName} has not arrived yet; upload it again`);
  const reject = async (reason: string) => {
    await deps.storage.delete(file.uploadKey);
    await setFileStatus(file.id, "failed_to_upload", { errorMessage: reason, size: stored.size }, deps);
    return new UploadRejected(reason);
  };
  if (stored.size > deps.config.fileMaxBytes) throw await reject(`The file is larger than ${megabytes(deps.config.fileMaxBytes)}`);
  if (stored.size === 0) throw await reject("The file is empty");
  const bytes = await deps.storage.get(file.uploadKey);
  if (!bytes || !looksLikePdf(bytes)) throw await reject("This file is not a PDF (its content is not PDF data)");
  const storageKey = finalKeyOf(file);
  await deps.storage.move(file.uploadKey, storageKey);
  await setFileStatus(file.id, "to_be_indexed", {
    storageKey, size: stored.size, contentHash: createHash("sha256").update(bytes).digest("hex"), errorMessage: null,
  }, deps);
}

/** Takes a file waiting for indexing, marking it sent_for_indexing; null when another worker has it. */
async function claimFile(fileId: number, deps: PipelineDeps) {
  const [file] = await deps.db.update(knowledgeFiles).set({ status: "sent_for_indexing", updatedAt: new Date() })
    .where(and(eq(knowledgeFiles.id, fileId), eq(knowledgeFiles.status, "to_be_indexed"))).returning();
  return file ?? null;
}

/** Extracts a stored PDF page by page, chunks it and replaces its chunks: the web pages' index path. */
export async function indexFile(fileId: number, deps: PipelineDeps) {
  const file = await claimFile(fileId, deps);
  if (!file) return { skipped: "not waiting for indexing" };
  try {
    const bytes = file.storageKey ? await deps.storage.get(file.storageKey) : null;
    if (!bytes) throw new Error("The stored file is missing; upload it again");
    const pdf = await extractPdf(bytes, file.fileName.replace(/\.pdf$/i, ""), { maxPages: deps.config.fileMaxPages });
    const pieces = chunkBlocks(pdf.blocks);
    await deps.db.transaction(async (tx) => {
      await replaceChunks(tx, { appId: file.appId, fileId: file.id }, pieces);
      await tx.update(knowledgeFiles).set({
        status: "indexed", title: cutText(pdf.title, 500), pageCount: pdf.pageCount, errorMessage: null, indexedAt: new Date(), updatedAt: new Date(),
      }).where(eq(knowledgeFiles.id, file.id));
    });
    return { indexed: file.id, pages: pdf.pageCount, chunks: pieces.length };
  } catch (error) {
    const message = (error as Error).message || String(error);
    await setFileStatus(file.id, "failed_to_index", { errorMessage: cutText(message, 1000) }, deps);
    return { failed: message };
  }
}

const ABANDONED_UPLOAD_HOURS = 24;

/**
 * After a crash, files left in sent_for_indexing go back in line, and every file waiting for
 * indexing is named so its job is sent again (a lost job must not strand a file). Uploads never
 * finished within a day are closed as failed and their partial bytes removed.
 */
export async function recoverFiles(deps: PipelineDeps, olderThanSeconds: number) {
  const cutoff = new Date(Date.now() - olderThanSeconds * 1000);
  const waiting = await deps.db.select({ id: knowledgeFiles.id }).from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.status, "to_be_indexed"), lte(knowledgeFiles.updatedAt, cutoff)));
  const reset = await deps.db.update(knowledgeFiles).set({ status: "to_be_indexed", updatedAt: new Date() })
    .where(and(eq(knowledgeFiles.status, "sent_for_indexing"), lte(knowledgeFiles.updatedAt, cutoff)))
    .returning({ id: knowledgeFiles.id });
  const abandoned = await deps.db.update(knowledgeFiles)
    .set({ status: "failed_to_upload", errorMessage: "The upload was not finished", updatedAt: new Date() })
    .where(and(eq(knowledgeFiles.status, "pending_upload"), lte(knowledgeFiles.createdAt, sql`now() - make_interval(hours => ${ABANDONED_UPLOAD_HOURS})`)))
    .returning({ uploadKey: knowledgeFiles.uploadKey });
  for (const { uploadKey } of abandoned) await deps.storage.delete(uploadKey);
  return { toIndex: [...waiting, ...reset].map((f) => f.id), abandoned: abandoned.length };
}

/** Removes files with their chunks (cascade) and their bytes. */
export async function deleteFiles(files: FileRecord[], deps: PipelineDeps) {
  if (!files.length) return;
  await deps.db.delete(knowledgeFiles).where(inArray(knowledgeFiles.id, files.map((f) => f.id)));
  for (const file of files) {
    await deps.storage.delete(file.uploadKey);
    if (file.storageKey) await deps.storage.delete(file.storageKey);
  }
}
