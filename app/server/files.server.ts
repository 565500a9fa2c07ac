import { json } from "@remix-run/node";
import { z } from "zod";
import {
  CompleteUploadBody,
  PresignBody,
  cleanFileName,
  FILE_TAGS,
  FILE_TAG_REFUSAL,
  FILE_UPLOAD_CONTENT_TYPE,
  isPdfName,
  MAX_FILES_PER_UPLOAD,
  type ClientApp,
  type KnowledgeFile,
  type PresignedUpload,
} from "@contract";
import {
  partlyUploadedMessage,
  UPLOAD_FAILED_MESSAGE,
  UPLOAD_FILE_FAILED,
  UPLOAD_TOAST_MS,
  uploadedMessage,
  CONFIRM_TAGS_PARAM,
} from "~/lib/files";
import { ApiError, shownInPlace, sendToStorage, type ApiClient } from "./api/client.server";
import { filesApi } from "./api/files-api.server";
import type { ConsoleContext } from "./context.server";
import { redirectWithToast } from "./toast.server";
import { GATE_MESSAGE, knowledgeGate } from "./production-gate.server";
import { readForm } from "./http/form-data.server";
import { chosenFiles, textOf } from "./http/form-fields.server";
import { isRowId } from "~/lib/ids";
import { lastPageInstead } from "~/lib/query-params";
import type { TableView } from "~/lib/table-view";
import type { FilesPaging } from "~/lib/files";

/** The two steps of a browser upload the Files page's script posts (files-upload route). */
export const UploadStep = z.discriminatedUnion("intent", [
  PresignBody.extend({ intent: z.literal("presign") }),
  CompleteUploadBody.extend({ intent: z.literal("complete") }),
]);

export interface FileUploadOutcome {
  file_name: string;
  ok: boolean;
  message: string;
}

export type FilesActionData =
  | { intent: "upload"; formError: string | null; outcomes: FileUploadOutcome[] }
  | { intent: "tags" | "delete"; formError: string; fileId: number };

/**
 * One page of a client's files as the table's view in the address asks (a page past the end shows
 * the last one), or the API's refusal as the spec's 'Error: {message}'.
 */
export async function loadFiles(
  api: ApiClient,
  appId: number,
  search: string,
  view: TableView,
): Promise<{ files: KnowledgeFile[]; paging: FilesPaging; error: string | null }> {
  const pageOf = (page: number) => filesApi.list(api, appId, search || undefined, { page, pageSize: view.pageSize });
  try {
    let read = await pageOf(view.page);
    const totalPages = Math.max(1, Math.ceil(read.total / view.pageSize));
    const last = lastPageInstead(view.page, { totalCount: read.total, totalPages });
    if (last !== null) read = await pageOf(last);
    return {
      files: read.files,
      paging: { view, page: Math.min(view.page, totalPages), totalPages, total: read.total },
      error: null,
    };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return { files: [], paging: { view, page: 1, totalPages: 1, total: 0 }, error: `Error: ${error.message}` };
  }
}

/** What registering one file of an upload came to: its signed link, or why the API refused it. */
export type PresignOutcome = { ok: true; target: PresignedUpload } | { ok: false; message: string };
/** The files-upload route's answer to `presign`: one outcome per file name, in order. */
export interface PresignAnswer {
  uploads: PresignOutcome[];
}

/**
 * Registers an upload's files, each on its own: a name the API refuses (not a PDF, already a file
 * of the client, twice in the upload) is that file's outcome, and the others are registered
 * without it. A refusal of the whole upload (permission, too many files) is thrown.
 */
export async function presignEach(
  api: ApiClient,
  appId: number,
  userId: number,
  names: string[],
): Promise<PresignOutcome[]> {
  const outcomes: PresignOutcome[] = names.map(() => ({ ok: false, message: "Not registered" }));
  let pending = names.map((_, index) => index);
  while (pending.length) {
    try {
      const sent = pending;
      const { presigned_urls } = await filesApi.presign(
        api,
        appId,
        userId,
        sent.map((index) => names[index]),
      );
      sent.forEach((index, n) => (outcomes[index] = { ok: true, target: presigned_urls[n] }));
      break;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      const refused = new Map<number, string>();
      for (const [field, messages] of Object.entries(error.fieldErrors)) {
        const at = /^file_names\.(\d+)$/.exec(field);
        if (at && Number(at[1]) < pending.length) refused.set(Number(at[1]), messages.join(", "));
      }
      if (!refused.size) throw error;
      for (const [n, message] of refused) outcomes[pending[n]] = { ok: false, message };
      pending = pending.filter((_, n) => !refused.has(n));
    }
  }
  return outcomes;
}

/** Everything larger is refused before it is read: twenty files at the API's default cap. */
const MAX_FORM_BYTES = MAX_FILES_PER_UPLOAD * 50 * 1024 * 1024;

/**
 * The upload without JavaScript: the form posts the PDFs here and the server does what the
 * browser does otherwise — register them, PUT each to its signed link, complete each — and
 * reports per file.
 */
async function uploadFromForm(
  request: Request,
  context: ConsoleContext,
  api: ApiClient,
  appId: number,
  userId: number,
  backTo: string,
) {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) {
    return json<FilesActionData>(
      {
        intent: "upload",
        formError: "These files are too large to send at once; upload fewer at a time.",
        outcomes: [],
      },
      { status: 413 },
    );
  }
  const formData = await readForm(request, { maxBytes: MAX_FORM_BYTES });
  const files = chosenFiles(formData, "files");
  if (!files.length)
    return json<FilesActionData>(
      { intent: "upload", formError: "Choose at least one PDF file.", outcomes: [] },
      { status: 400 },
    );
  // A file of another type is refused beside its name; the PDFs chosen with it are still uploaded.
  const isPdf = (file: File) => isPdfName(cleanFileName(file.name));
  const notPdfOutcome = (file: File): FileUploadOutcome => ({
    file_name: file.name,
    ok: false,
    message: `${UPLOAD_FILE_FAILED}: ${file.name} is not a PDF`,
  });
  const pdfs = files.filter(isPdf);
  if (!pdfs.length) {
    return json<FilesActionData>(
      { intent: "upload", formError: "Only PDF files are accepted.", outcomes: files.map(notPdfOutcome) },
      { status: 400 },
    );
  }
  let presigned: PresignOutcome[];
  try {
    presigned = await presignEach(
      api,
      appId,
      userId,
      pdfs.map((file) => file.name),
    );
  } catch (error) {
    if (!shownInPlace(error)) throw error;
    return json<FilesActionData>(
      { intent: "upload", formError: `${UPLOAD_FAILED_MESSAGE} ${error.message}`, outcomes: [] },
      error.answerInit,
    );
  }
  const outcomes: FileUploadOutcome[] = [];
  let registeredAt = 0;
  for (const file of files) {
    if (!isPdf(file)) {
      outcomes.push(notPdfOutcome(file));
      continue;
    }
    const registered = presigned[registeredAt++];
    if (!registered.ok) {
      outcomes.push({ file_name: file.name, ok: false, message: `${UPLOAD_FILE_FAILED}: ${registered.message}` });
      continue;
    }
    const target = registered.target;
    try {
      const sent = await sendToStorage(context, target.url, {
        method: "PUT",
        headers: { "content-type": FILE_UPLOAD_CONTENT_TYPE },
        body: new Uint8Array(await file.arrayBuffer()),
      });
      if (!sent.ok) {
        const reason =
          ((await sent.json().catch(() => null)) as { message?: string } | null)?.message ??
          `storage answered ${sent.status}`;
        outcomes.push({ file_name: target.file_name, ok: false, message: `${UPLOAD_FILE_FAILED}: ${reason}` });
        continue;
      }
      await filesApi.completeUpload(api, target.url_id, target.s3_path);
      outcomes.push({ file_name: target.file_name, ok: true, message: "Uploaded" });
    } catch (error) {
      if (!shownInPlace(error)) throw error;
      outcomes.push({ file_name: target.file_name, ok: false, message: `${UPLOAD_FILE_FAILED}: ${error.message}` });
    }
  }
  const uploaded = outcomes.filter((o) => o.ok).length;
  if (uploaded === outcomes.length) {
    return redirectWithToast(backTo, {
      type: "success",
      description: uploadedMessage(uploaded),
      durationMs: UPLOAD_TOAST_MS,
    });
  }
  const formError = uploaded ? partlyUploadedMessage(uploaded, outcomes.length - uploaded) : UPLOAD_FAILED_MESSAGE;
  return json<FilesActionData>({ intent: "upload", formError, outcomes }, { status: uploaded ? 200 : 400 });
}

async function newlyInProduction(api: ApiClient, appId: number, fileId: number, tags: string[]) {
  if (!tags.includes("production")) return false;
  // The one file, not the whole list: a client may hold thousands.
  const file = await filesApi.one(api, appId, fileId);
  return Boolean(file && !file.tags.includes("production"));
}

/**
 * The confirmation `?confirm_tags={file}&tags=…` asks for: the file, the tags it would get and the
 * gate (null when nothing fails any more, and then nothing is asked).
 */
export async function tagsToConfirm(api: ApiClient, app: ClientApp, files: KnowledgeFile[], search: URLSearchParams) {
  const fileId = Number(search.get(CONFIRM_TAGS_PARAM));
  const file = files.find((candidate) => candidate.id === fileId);
  if (!file) return null;
  const tags = (search.get("tags") ?? "").split(",").filter((tag) => (FILE_TAGS as readonly string[]).includes(tag));
  const gate = await knowledgeGate(api, app, new FormData());
  return gate ? { file: { id: file.id, name: file.file_name }, tags, gate } : null;
}

/** Tags, deletion and the form upload; `backTo` is the page (with its search) to return to. */
export async function handleFilesAction(args: {
  request: Request;
  context: ConsoleContext;
  api: ApiClient;
  app: ClientApp;
  userId: number;
  backTo: string;
}) {
  const { request, context, api, app, userId, backTo } = args;
  const appId = app.id;
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    return uploadFromForm(request, context, api, appId, userId, backTo);
  }
  const formData = await readForm(request);
  const intent = textOf(formData, "intent");
  const fileId = Number(formData.get("file_id"));
  if (!isRowId(fileId)) throw new Response("Choose a file", { status: 400 });
  try {
    if (intent === "tags") {
      const tags = formData.getAll("tags").map(String);
      // Only a forged form sends a tag the screen does not offer: refused, not quietly left out.
      if (tags.some((tag) => !(FILE_TAGS as readonly string[]).includes(tag)))
        return json<FilesActionData>({ intent, formError: FILE_TAG_REFUSAL, fileId }, { status: 400 });
      if ((await newlyInProduction(api, appId, fileId, tags)) && (await knowledgeGate(api, app, formData))) {
        const confirm = new URL(backTo, "http://console.invalid");
        confirm.searchParams.set(CONFIRM_TAGS_PARAM, String(fileId));
        confirm.searchParams.set("tags", tags.join(","));
        return redirectWithToast(`${confirm.pathname}${confirm.search}`, { type: "error", description: GATE_MESSAGE });
      }
      const saved = await filesApi.setTags(api, appId, fileId, tags);
      return redirectWithToast(backTo, { type: "success", description: `Tags of ${saved.file_name} saved` });
    }
    if (intent === "delete") {
      const removed = await filesApi.remove(api, appId, fileId);
      return redirectWithToast(backTo.replace(/([?&])delete=\d+&?/, "$1").replace(/[?&]$/, ""), {
        type: "success",
        description: removed.message,
      });
    }
  } catch (error) {
    // The API client throws its 403 and 404 as responses for error boundaries; here they are a
    // refused change (a file deleted meanwhile, in another tab or by a colleague), said on the page.
    const refused = error instanceof Response && error.status >= 400 && error.status < 500;
    const refusal = refused
      ? (await error.text()) || error.statusText || `The API answered ${error.status}`
      : error instanceof ApiError && error.status < 500
        ? error.message
        : null;
    // Tags save from the row as they are ticked: the refusal is a toast over the list read again.
    if (intent === "tags" && refusal !== null)
      return redirectWithToast(backTo, { type: "error", description: `Tags not saved: ${refusal}` });
    if (refused) {
      return json<FilesActionData>(
        { intent: intent as "tags" | "delete", formError: refusal!, fileId },
        { status: error.status },
      );
    }
    if (!shownInPlace(error)) throw error;
    return json<FilesActionData>(
      { intent: intent as "tags" | "delete", formError: error.message, fileId },
      error.answerInit,
    );
  }
  throw new Response(`Unknown action: ${intent}`, { status: 400 });
}
