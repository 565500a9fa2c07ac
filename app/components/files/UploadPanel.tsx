import { Form, useRevalidator } from "@remix-run/react";
import { useCallback, useRef, useState } from "react";
import type { PresignedUpload } from "@contract";
import { useHydrated } from "~/components/useHydrated";
import type { ToastMessage } from "~/components/Toaster";
import {
  isPdfFile,
  partlyUploadedMessage,
  putWithProgress,
  UPLOAD_FAILED_MESSAGE,
  UPLOAD_FILE_FAILED,
  UPLOAD_TOAST_MS,
  uploadedMessage,
} from "~/lib/files";
import type { FileUploadOutcome, PresignAnswer, PresignOutcome } from "~/server/files.server";
import * as ui from "~/styles/ui.css";
import * as s from "./files.css";
import { useLeaveBlock } from "~/components/LeaveGuard";

type UploadState = "waiting" | "uploading" | "done" | "failed";
interface Upload {
  name: string;
  progress: number;
  state: UploadState;
  message: string;
}

/** Files sent at once: enough to fill the line, few enough that each shows steady progress. */
const PARALLEL_UPLOADS = 3;

async function postStep<T>(endpoint: string, body: unknown): Promise<T> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as T & { message?: string };
  if (!response.ok) throw new Error(answer.message ?? `The console answered ${response.status}`);
  return answer;
}

/**
 * '+ Upload Files'. With JavaScript: picks PDFs, registers them, PUTs each straight to its signed
 * link with a progress bar, completes each, and keeps the user on the page until all are done
 * (button spinning and disabled). Without JavaScript the same form posts the files to the page's
 * action, which does those steps on the server; `outcomes` are its per-file results.
 */
export function UploadPanel({
  endpoint,
  outcomes,
  formError,
  onToast,
}: {
  endpoint: string;
  outcomes: FileUploadOutcome[];
  formError: string | null;
  onToast: (toast: ToastMessage) => void;
}) {
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const revalidator = useRevalidator();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const uploading = uploads.some((upload) => upload.state === "waiting" || upload.state === "uploading");

  // Leaving is blocked while bytes are on their way: closing the tab asks, links inside the console wait.
  useLeaveBlock(
    uploading,
    useCallback(
      () => onToast({ type: "info", description: "Files are still uploading. Stay on this page until they finish." }),
      [onToast],
    ),
  );

  const update = (index: number, change: Partial<Upload>) =>
    setUploads((current) => current.map((upload, i) => (i === index ? { ...upload, ...change } : upload)));

  async function start(files: File[]) {
    const pdfs = files.filter(isPdfFile);
    const rejected = files.filter((file) => !isPdfFile(file));
    setUploads([
      ...pdfs.map((file) => ({ name: file.name, progress: 0, state: "waiting" as const, message: "Waiting" })),
      ...rejected.map((file) => ({
        name: file.name,
        progress: 0,
        state: "failed" as const,
        message: `${UPLOAD_FILE_FAILED}: only PDF files are accepted`,
      })),
    ]);
    if (!pdfs.length) {
      onToast({ type: "error", description: UPLOAD_FAILED_MESSAGE, durationMs: UPLOAD_TOAST_MS });
      return;
    }
    let registered: PresignOutcome[];
    try {
      registered = (
        await postStep<PresignAnswer>(endpoint, {
          intent: "presign",
          file_names: pdfs.map((f) => f.name),
        })
      ).uploads;
    } catch (error) {
      setUploads((current) =>
        current.map((upload) =>
          upload.state === "waiting"
            ? { ...upload, state: "failed", message: `${UPLOAD_FILE_FAILED}: ${(error as Error).message}` }
            : upload,
        ),
      );
      onToast({
        type: "error",
        title: UPLOAD_FAILED_MESSAGE,
        description: (error as Error).message,
        durationMs: UPLOAD_TOAST_MS,
      });
      return;
    }
    // A file the API refused by name (already uploaded, twice in this upload) says so; the others go on.
    const accepted: { index: number; target: PresignedUpload }[] = [];
    registered.forEach((outcome, index) => {
      if (outcome.ok) accepted.push({ index, target: outcome.target });
      else update(index, { state: "failed", message: `${UPLOAD_FILE_FAILED}: ${outcome.message}` });
    });
    let next = 0;
    let succeeded = 0;
    const worker = async () => {
      while (next < accepted.length) {
        const { index, target } = accepted[next++];
        update(index, { state: "uploading", message: "Uploading" });
        try {
          await putWithProgress(target.url, pdfs[index], (fraction) => update(index, { progress: fraction }));
          await postStep(endpoint, { intent: "complete", url_id: target.url_id, s3_path: target.s3_path });
          update(index, { state: "done", progress: 1, message: "Uploaded" });
          succeeded += 1;
        } catch (error) {
          update(index, { state: "failed", message: `${UPLOAD_FILE_FAILED}: ${(error as Error).message}` });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, accepted.length) }, worker));
    revalidator.revalidate();
    if (succeeded === files.length)
      onToast({ type: "success", description: uploadedMessage(succeeded), durationMs: UPLOAD_TOAST_MS });
    else
      onToast({
        type: "error",
        description: succeeded ? partlyUploadedMessage(succeeded, files.length - succeeded) : UPLOAD_FAILED_MESSAGE,
        durationMs: UPLOAD_TOAST_MS,
      });
  }

  const shown: Upload[] = uploads.length
    ? uploads
    : outcomes.map((o) => ({
        name: o.file_name,
        progress: o.ok ? 1 : 0,
        state: o.ok ? "done" : "failed",
        message: o.message,
      }));

  return (
    <div>
      <Form method="post" encType="multipart/form-data" className={s.uploadForm} aria-label="Upload files">
        <input
          ref={input}
          type="file"
          name="files"
          multiple
          accept=".pdf,application/pdf"
          aria-label="PDF files to upload"
          className={hydrated ? ui.visuallyHidden : ui.input}
          tabIndex={hydrated ? -1 : undefined}
          onChange={(event) => {
            const files = [...(event.currentTarget.files ?? [])];
            event.currentTarget.value = "";
            if (files.length) void start(files);
          }}
        />
        <button
          type={hydrated ? "button" : "submit"}
          className={ui.button.primary}
          // Held (aria-disabled) rather than disabled while files upload: a disabled button drops the
          // keyboard focus to the page's body, and the keyboard user would start again from the top.
          aria-disabled={uploading || undefined}
          aria-busy={uploading || undefined}
          onClick={hydrated ? () => (uploading ? undefined : input.current?.click()) : undefined}
        >
          {uploading ? <span className={s.buttonSpinner} aria-hidden="true" /> : null}
          {uploading ? "Uploading…" : "+ Upload Files"}
        </button>
      </Form>
      {formError ? (
        <p role="alert" className={ui.fieldError}>
          {formError}
        </p>
      ) : null}
      {shown.length ? (
        <ul className={s.uploads} aria-label="Uploads">
          {shown.map((upload, index) => (
            <li key={`${upload.name}-${index}`} className={s.upload}>
              <span>{upload.name}</span>
              <progress className={s.progress} value={upload.progress} max={1} aria-label={`Upload of ${upload.name}`}>
                {Math.round(upload.progress * 100)}%
              </progress>
              <span className={s.uploadState[upload.state]} role={upload.state === "failed" ? "alert" : undefined}>
                {upload.state === "uploading" ? `${Math.round(upload.progress * 100)}%` : upload.message}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
