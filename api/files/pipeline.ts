import { createHash, randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { knowledgeFiles } from "../db/schema";
import type { ApiDeps, WorkerDeps } from "../deps";
import { chunkBlocks } from "../knowledge/index/chunk";
import { replaceChunks } from "../knowledge/index/chunk-store";
import { isDatabaseUnavailable } from "../db/errors";
import { claimsInHand, sweepAbandoned } from "../jobs/in-hand";
import { ClaimLost } from "../jobs/leases";
import { extractPdf, UnreadablePdf } from "../knowledge/extract/extract-pdf";
import { ACCEPTANCE_HOLD_SECONDS, finalKeyOf, getFile, type FileRecord } from "./store";
import { cutText } from "@contract";
import { queueRunsAfterChange } from "../testing/auto-runs";
import type { Executor } from "../controls/scope";
import { recordChange, type Author } from "../history/record";
import { filesChange } from "./file-change";
import { FinalFailure } from "../jobs/final-failure";

type PipelineDeps = Pick<ApiDeps, "db" | "storage" | "config" | "log">;

/** PDF readers accept the header anywhere in the first kilobyte; so do we, and nothing else. */
export function looksLikePdf(bytes: Uint8Array) {
  return Buffer.from(bytes.subarray(0, 1024)).includes("%PDF-");
}

export class UploadRejected extends Error {}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Holds a pending file for this request; answers the hold's token, or null when another request has it. */
async function holdForAcceptance(fileId: number, deps: PipelineDeps) {
  const token = randomUUID();
  const [held] = await deps.db
    .update(knowledgeFiles)
    .set({ claimedBy: token, updatedAt: new Date() })
    .where(
      and(
        eq(knowledgeFiles.id, fileId),
        eq(knowledgeFiles.status, "pending_upload"),
        or(
          isNull(knowledgeFiles.claimedBy),
          lte(knowledgeFiles.updatedAt, sql`now() - make_interval(secs => ${ACCEPTANCE_HOLD_SECONDS})`),
        ),
      ),
    )
    .returning({ id: knowledgeFiles.id });
  return held ? token : null;
}

/**
 * Takes in the bytes a browser PUT for a pending file: present, within the size cap and a PDF by
 * content. Accepted bytes move to a key no upload link can write, and the file waits for indexing;
 * rejected ones are deleted and the file says why. Answers false when another request is already
 * checking this file (see waitForAcceptance). An accepted file is added to the knowledge store by
 * `author`, and History records it so, with the write that makes it so.
 */
export async function acceptUpload(file: FileRecord, author: Author, deps: PipelineDeps) {
  const token = await holdForAcceptance(file.id, deps);
  if (!token) return false;
  const settle = (changes: Partial<FileRecord>, db: Executor = deps.db) =>
    db
      .update(knowledgeFiles)
      .set({ ...changes, claimedBy: null, updatedAt: new Date() })
      .where(and(eq(knowledgeFiles.id, file.id), eq(knowledgeFiles.claimedBy, token)));
  try {
    const stored = await deps.storage.head(file.uploadKey);
    if (!stored) throw new UploadRejected(`${file.fileName} has not arrived yet; upload it again`);
    const reject = async (reason: string) => {
      await deps.storage.delete(file.uploadKey);
      await settle({ status: "failed_to_upload", errorMessage: reason, size: stored.size });
      return new UploadRejected(reason);
    };
    if (stored.size > deps.config.fileMaxBytes)
      throw await reject(`The file is larger than ${megabytes(deps.config.fileMaxBytes)}`);
    if (stored.size === 0) throw await reject("The file is empty");
    const bytes = await deps.storage.get(file.uploadKey);
    if (!bytes || !looksLikePdf(bytes)) throw await reject("This file is not a PDF (its content is not PDF data)");
    const storageKey = finalKeyOf(file);
    try {
      await deps.storage.move(file.uploadKey, storageKey);
    } catch (error) {
      // Deleted while it was checked: the delete took the uploaded bytes, and there is nothing to accept.
      if (!(await getFile(file.id, deps))) return false;
      throw error;
    }
    const { result: accepted } = await recordChange(deps, author, filesChange(file.appId, [file.id]), (db) =>
      settle(
        {
          status: "to_be_indexed",
          storageKey,
          size: stored.size,
          contentHash: createHash("sha256").update(bytes).digest("hex"),
          errorMessage: null,
        },
        db,
      ).returning({ id: knowledgeFiles.id }),
    );
    if (accepted.length) return true;
    // Deleted between the move and now: its bytes would otherwise stay with no row naming them.
    if (!(await getFile(file.id, deps))) await deps.storage.delete(storageKey);
    return false;
  } finally {
    // Whatever went wrong (bytes not there yet, storage down), the file is left to the next try.
    await settle({});
  }
}

/** Waits (up to 15 s) for another request's check of a pending file to end; answers the file then. */
export async function waitForAcceptance(fileId: number, deps: PipelineDeps) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const [file] = await deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, fileId));
    if (!file || file.status !== "pending_upload" || file.claimedBy === null || Date.now() > deadline)
      return file ?? null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Takes a file waiting for indexing, marking it sent_for_indexing by this worker; null when another worker has it. */
async function claimFile(fileId: number, deps: WorkerDeps) {
  const [file] = await deps.db
    .update(knowledgeFiles)
    .set({ status: "sent_for_indexing", claimedBy: deps.workerId, updatedAt: new Date() })
    .where(and(eq(knowledgeFiles.id, fileId), eq(knowledgeFiles.status, "to_be_indexed")))
    .returning();
  return file ?? null;
}

/** Writes a file's outcome only while this worker still holds it: work taken back is not written twice. */
async function finishFile(db: PipelineDeps["db"], file: FileRecord, values: Partial<FileRecord>, deps: WorkerDeps) {
  const [held] = await db
    .update(knowledgeFiles)
    .set({ ...values, claimedBy: null, updatedAt: new Date() })
    .where(and(eq(knowledgeFiles.id, file.id), eq(knowledgeFiles.claimedBy, deps.workerId)))
    .returning({ id: knowledgeFiles.id });
  if (!held) throw new ClaimLost(`${file.fileName} was taken back by another worker`);
}

class StoredFileMissing extends Error {}

const INDEX_FAILED =
  "The file could not be indexed because of an error on our side, which was logged; index it again to retry.";

/**
 * Why a file failed, as the Files screen shows it: the PDF's own reasons as they are; ours (storage,
 * the database) as one sentence, since their messages can carry paths, statements and values.
 */
const reasonFor = (error: unknown) =>
  error instanceof UnreadablePdf || error instanceof StoredFileMissing ? error.message : INDEX_FAILED;

/**
 * Extracts a stored PDF page by page, chunks it and replaces its chunks: the web pages' index path.
 * The file is in this job's hand from its claim until its outcome is written or cannot be: the
 * worker's sweep takes back only a claim no job has in hand (jobs/in-hand.ts).
 */
export async function indexFile(fileId: number, deps: WorkerDeps) {
  const inHand = claimsInHand("files", deps.workerId);
  const [file] = await inHand.claim(async () => {
    const claimed = await claimFile(fileId, deps);
    return claimed ? [claimed] : [];
  });
  if (!file) return { skipped: "not waiting for indexing" };
  try {
    const bytes = file.storageKey ? await deps.storage.get(file.storageKey) : null;
    if (!bytes) throw new StoredFileMissing("The stored file is missing; upload it again");
    const pdf = await extractPdf(bytes, file.fileName.replace(/\.pdf$/i, ""), { maxPages: deps.config.fileMaxPages });
    const pieces = chunkBlocks(pdf.blocks, { title: pdf.title });
    await deps.db.transaction(async (tx) => {
      // The claim first: its row lock keeps a recovery sweep out until the chunks are in.
      await finishFile(
        tx,
        file,
        {
          status: "indexed",
          title: cutText(pdf.title, 500),
          pageCount: pdf.pageCount,
          errorMessage: null,
          indexedAt: new Date(),
        },
        deps,
      );
      await replaceChunks(tx, { appId: file.appId, fileId: file.id }, pieces);
    });
    await queueRunsAfterChange(file.appId, "every agent", "file indexed", deps);
    return { indexed: file.id, pages: pdf.pageCount, chunks: pieces.length };
  } catch (error) {
    if (error instanceof ClaimLost) return { skipped: error.message };
    // Not the file's fault: it stays claimed and leaves this job's hand, and the worker's sweep
    // puts it back in line once the database answers again.
    if (isDatabaseUnavailable(error)) return { interrupted: file.id };
    const message = reasonFor(error);
    if (message === INDEX_FAILED)
      deps.log.warn(`indexing ${file.fileName} failed: ${(error as Error)?.stack ?? String(error)}`);
    try {
      await finishFile(deps.db, file, { status: "failed_to_index", errorMessage: cutText(message, 1000) }, deps);
    } catch (lost) {
      if (lost instanceof ClaimLost) return { skipped: lost.message };
      // Still claimed by this worker and out of hand: its sweep puts it back once the database answers.
      if (isDatabaseUnavailable(lost)) return { interrupted: file.id };
      throw lost;
    }
    throw new FinalFailure(message);
  } finally {
    inHand.drop([file.id]);
  }
}

const ABANDONED_UPLOAD_HOURS = 24;

/**
 * Files in sent_for_indexing held by no live worker (its lease lapsed) go back in line; answers their
 * ids. Given the sweeping process's `workerId`, its own files that no job of it has in hand go back
 * too: those whose outcome could not be written while the database was away (jobs/in-hand.ts).
 */
export async function takeBackAbandonedFiles(deps: PipelineDeps & { workerId?: string }) {
  const released = await sweepAbandoned("files", knowledgeFiles, deps.workerId, (abandoned) =>
    deps.db
      .update(knowledgeFiles)
      .set({ status: "to_be_indexed", claimedBy: null, updatedAt: new Date() })
      .where(and(eq(knowledgeFiles.status, "sent_for_indexing"), abandoned))
      .returning({ id: knowledgeFiles.id }),
  );
  return released.map((f) => f.id);
}

/**
 * Files waiting for indexing longer than `olderThanSeconds` are named so their job is sent again
 * (a lost job must not strand a file). Uploads never finished within a day are closed as failed
 * and their partial bytes removed.
 */
export async function recoverWaitingFiles(deps: PipelineDeps, olderThanSeconds: number) {
  const cutoff = new Date(Date.now() - olderThanSeconds * 1000);
  const waiting = await deps.db
    .select({ id: knowledgeFiles.id })
    .from(knowledgeFiles)
    .where(
      and(
        eq(knowledgeFiles.status, "to_be_indexed"),
        isNull(knowledgeFiles.claimedBy),
        lte(knowledgeFiles.updatedAt, cutoff),
      ),
    );
  const abandoned = await deps.db
    .update(knowledgeFiles)
    .set({ status: "failed_to_upload", errorMessage: "The upload was not finished", updatedAt: new Date() })
    .where(
      and(
        eq(knowledgeFiles.status, "pending_upload"),
        lte(knowledgeFiles.createdAt, sql`now() - make_interval(hours => ${ABANDONED_UPLOAD_HOURS})`),
      ),
    )
    .returning({ uploadKey: knowledgeFiles.uploadKey });
  for (const { uploadKey } of abandoned) await deps.storage.delete(uploadKey);
  return { toIndex: waiting.map((f) => f.id), abandoned: abandoned.length };
}

/**
 * Removes files with their chunks (cascade), on `db`: a transaction that records the change, whose
 * commit the bytes wait for (deleteFileBytes), so a removal that does not stand keeps them.
 */
export async function deleteFileRows(files: FileRecord[], db: Executor) {
  if (!files.length) return;
  await db.delete(knowledgeFiles).where(
    inArray(
      knowledgeFiles.id,
      files.map((f) => f.id),
    ),
  );
}

/**
 * Removes the stored bytes of files whose rows are gone: the uploaded ones, and the kept ones
 * wherever acceptance puts them, since an upload accepted as the file was deleted may have moved
 * them there after the row was read.
 */
export async function deleteFileBytes(files: FileRecord[], deps: Pick<PipelineDeps, "storage">) {
  for (const file of files) {
    await deps.storage.delete(file.uploadKey);
    for (const key of new Set([file.storageKey, finalKeyOf(file)])) if (key) await deps.storage.delete(key);
  }
}
