import { FILE_UPLOAD_CONTENT_TYPE } from "@contract/values/files";
import type { TableView } from "./table-view";

/** The spec's texts for uploads. */
export const UPLOAD_FAILED_MESSAGE = "Failed to upload files. Please try again.";
export const UPLOAD_FILE_FAILED = "Failed to upload file";
export const NO_FILES_TEXT = "No files uploaded yet.";
/** Upload toasts stay 3 s (other toasts 5 s). */
export const UPLOAD_TOAST_MS = 3000;

export const uploadedMessage = (count: number) =>
  count === 1 ? "1 file uploaded; indexing has started" : `${count} files uploaded; indexing has started`;

/** An upload some of whose files were refused: what went in, and that each refusal is said beside its file. */
export const partlyUploadedMessage = (uploaded: number, failed: number) =>
  `${uploadedMessage(uploaded)}. ${failed === 1 ? "1 file" : `${failed} files`} could not be uploaded: the reason is beside each.`;

/** The address parameter of the tags confirmation (a file tagged production while stage fails questions). */
export const CONFIRM_TAGS_PARAM = "confirm_tags";

/** The address parameters of a question open over the Files list: changing the list's page closes it. */
export const FILES_QUESTION_PARAMS = ["delete", CONFIRM_TAGS_PARAM, "tags"] as const;

/** Where the Files list's page is among all of them. */
export interface FilesPaging {
  view: TableView;
  page: number;
  totalPages: number;
  total: number;
}

/** The Files list's own view in its address (the search and the page), without a question it asks (`?delete=`). */
export function filesListSearch(search: string, extra: Record<string, string> = {}) {
  const asked = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of ["search", "page", "page_size"]) {
    const value = asked.get(name);
    if (value) kept.set(name, value);
  }
  for (const [name, value] of Object.entries(extra)) kept.set(name, value);
  return kept.size ? `?${kept}` : "";
}

export const isPdfFile = (file: { name: string; type: string }) =>
  /\.pdf$/i.test(file.name) || file.type === FILE_UPLOAD_CONTENT_TYPE;

/** A file's size under its name (History says it the same way). */
export { fileSizeText as formatBytes } from "@contract/values/files";

export class UploadFailed extends Error {}

/**
 * PUTs one file to its signed link, reporting progress (0–1). XMLHttpRequest because fetch
 * cannot report upload progress. A refusal carries the storage's message when it sent one.
 */
export function putWithProgress(url: string, file: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PUT", url);
    request.setRequestHeader("Content-Type", FILE_UPLOAD_CONTENT_TYPE);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      let message = `storage answered ${request.status}`;
      try {
        message = (JSON.parse(request.responseText) as { message?: string }).message ?? message;
      } catch {
        // S3 answers XML; the status says enough.
      }
      reject(new UploadFailed(message));
    };
    request.onerror = () => reject(new UploadFailed("the connection failed"));
    request.onabort = () => reject(new UploadFailed("the upload was cancelled"));
    signal?.addEventListener("abort", () => request.abort());
    request.send(file);
  });
}
