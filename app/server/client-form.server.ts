import { createHash } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import type { AppInput, ClientApp } from "@contract";
import { SOMETHING_WENT_WRONG } from "~/lib/messages";
import { completeClientFields, parseTriggerPoints } from "~/lib/client-form";
import type { ImportReplaceQuestion } from "~/lib/import-question";
import { ClientForm, ImportClientsForm, type ClientFormValue } from "~/lib/client-form.schema";
import { ApiError, shownInPlace, type ApiClient } from "./api/client.server";
import { appsApi } from "./api/apps-api.server";
import { LOGO_TOO_LARGE, readLogoForm, replyWithApiError } from "./forms.server";
import { redirectWithToast } from "./toast.server";
import { filesPastLimit } from "./http/form-data.server";
import { chosenFile, textOf } from "./http/form-fields.server";

export const UPLOAD_FALLBACK_MESSAGE = "Request successful";

/**
 * Fills the form's computed fields on the server, so the form works without JavaScript and the
 * reply shows what was sent: a blank url_code is derived from primary_website, market and
 * client_type follow. When editing, url_code and country are the client's own (read-only).
 */
function completeFormData(formData: FormData, existing: ClientApp | null) {
  if (existing) {
    formData.set("url_code", existing.url_code);
    formData.set("country", existing.country);
  }
  const computed = completeClientFields({
    primary_website: textOf(formData, "primary_website"),
    url_code: textOf(formData, "url_code"),
    country: textOf(formData, "country"),
    copy_market: textOf(formData, "copy_market"),
    client_type: textOf(formData, "client_type"),
  });
  for (const [name, value] of Object.entries(computed)) formData.set(name, value);
}

/** The API's field paths ⇒ the form's fields (each trigger point ⇒ the one text field; files ⇒ the logo). */
function formFieldOf(path: string) {
  if (path === "files" || path.startsWith("files.") || path === "logo_url") return "logo";
  if (path.startsWith("trigger_points")) return "trigger_points";
  return path;
}

function withFormFieldNames(error: unknown) {
  if (!(error instanceof ApiError) || !error.body.errors) return error;
  const errors: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(error.body.errors))
    (errors[formFieldOf(path)] ??= []).push(...messages);
  return new ApiError(error.status, { ...error.body, errors }, error.retryAfter);
}

export function toAppInput(value: ClientFormValue): AppInput {
  return {
    client_name: value.client_name,
    primary_website: value.primary_website,
    notes: value.notes,
    url_code: value.url_code,
    project_url: value.project_url,
    market: value.market,
    logo_url: value.logo_url || null,
    country: value.country,
    copy_market: value.copy_market,
    client_type: value.client_type,
    onboard_existing_client: value.onboard_existing_client,
    trigger_points: parseTriggerPoints(value.trigger_points),
    mode_env: value.mode_env,
    insync_prod_app_id: value.insync_prod_app_id || null,
  };
}

/**
 * The onboard (existing = null) and edit actions. The logo travels in the same multipart form:
 * it is uploaded first and its URL becomes logo_url; a refused upload comes back next to the
 * logo field with everything typed kept. API refusals of the client itself come back next to
 * their fields. Success: a new client opens at /{url_code}; an edit stays with 'Saved'.
 */
export async function submitClientForm(request: Request, api: ApiClient, existing: ClientApp | null) {
  const { formData, tooLarge } = await readLogoForm(request);
  if (!formData) return tooLarge;
  completeFormData(formData, existing);

  const logo = formData.get("logo");
  formData.delete("logo");
  if (filesPastLimit(formData).some((file) => file.field === "logo")) {
    const submission = parseWithZod(formData, { schema: ClientForm });
    return json(submission.reply({ fieldErrors: { logo: [LOGO_TOO_LARGE] } }), { status: 413 });
  }
  let uploadMessage: string | null = null;
  if (chosenFile(logo)) {
    try {
      const uploaded = await appsApi.uploadLogos(api, [logo]);
      if (uploaded.files[0]) formData.set("logo_url", uploaded.files[0].url);
      uploadMessage = uploaded.message || UPLOAD_FALLBACK_MESSAGE;
    } catch (error) {
      if (!shownInPlace(error)) throw error;
      const submission = parseWithZod(formData, { schema: ClientForm });
      return json(submission.reply({ fieldErrors: { logo: [error.message] } }), error.answerInit);
    }
  }

  const submission = parseWithZod(formData, { schema: ClientForm });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const input = toAppInput(submission.value);
  const title = uploadMessage ?? undefined;
  try {
    if (existing) {
      const saved = await appsApi.update(api, existing.id, input);
      return redirectWithToast(`/${saved.url_code}/manage`, { type: "success", title, description: "Saved" });
    }
    const created = await appsApi.create(api, input);
    return redirectWithToast(`/${created.url_code}`, {
      type: "success",
      title,
      description: `${created.client_name} onboarded`,
    });
  } catch (error) {
    return replyWithApiError(submission, withFormFieldNames(error));
  }
}

/** The import screen's form as posted (the ticked file names), checked with its schema. */
export const readImportClientsForm = (formData: FormData) => parseWithZod(formData, { schema: ImportClientsForm });

/**
 * Before anything is imported: the question, when any of the files would change a client that
 * exists (naming it and what would change), or null when none would. A file the import would
 * refuse is left to the import, which says why in turn; a failure of the API is the import's toast.
 *
 * `confirmed` is the digest of the question a confirmation was given for. The files are previewed
 * again, and the import goes ahead (null) only when what they would now change is what was asked:
 * another operator's edit of what the import would replace, an agent renamed, other files posted,
 * give another digest, and the answer is the question again, with what the import would change
 * now and a word that it has changed.
 */
export async function askBeforeReplacing(api: ApiClient, fileNames: string[], confirmed?: string) {
  const replacing: ImportReplaceQuestion["replacing"] = [];
  const fingerprints: [string, number, string][] = [];
  for (const fileName of fileNames) {
    try {
      const preview = await appsApi.previewImport(api, fileName);
      if (preview.existing && preview.change_count > 0) {
        replacing.push({
          file_name: fileName,
          client_name: preview.existing.client_name,
          changes: preview.changes,
          change_count: preview.change_count,
        });
        fingerprints.push([fileName, preview.existing.id, preview.digest]);
      }
    } catch (error) {
      // The API's refusal of the file (a missing file's 404 comes as the page's answer).
      const refused =
        (error instanceof ApiError && error.status < 500) ||
        (error instanceof Response && (error.status === 403 || error.status === 404));
      if (refused) continue;
      return redirectWithToast("/clients/import", {
        type: "error",
        description: importFailureMessage(fileName, error),
      });
    }
  }
  if (!replacing.length) return null;
  const asked = createHash("sha256")
    .update(JSON.stringify([fileNames, fingerprints]))
    .digest("hex");
  if (confirmed === asked) return null;
  return json<ImportReplaceQuestion>({
    intent: "confirm-import-replace",
    asked,
    changedSince: confirmed !== undefined,
    fileNames,
    replacing,
  });
}

/** The toast of imported files: how many, and what each did to its client. */
export const importedSummary = (done: string[]) =>
  `Imported ${done.length} ${done.length === 1 ? "file" : "files"}: ${done.join("; ")}`;

/** The first few field refusals of an API answer, as "field: message". */
function fieldReasons(errors: Record<string, string[]> | undefined, most = 3) {
  const reasons = Object.entries(errors ?? {}).flatMap(([field, messages]) =>
    messages.map((message) => (field === "_" ? message : `${field}: ${message}`)),
  );
  return reasons.length > most ? [...reasons.slice(0, most), `and ${reasons.length - most} more`] : reasons;
}

/**
 * Why the import of `fileName` failed, for the toast: the API's message with the reasons it gives
 * per field (what to fix in the file), naming the file where the message does not; the spec's
 * catch-all for a server failure. A redirect to sign-in is not an import failure and propagates.
 */
export function importFailureMessage(fileName: string, error: unknown): string {
  let message: string;
  if (error instanceof ApiError) {
    if (!shownInPlace(error)) return SOMETHING_WENT_WRONG;
    const reasons = fieldReasons(error.body.errors);
    message = reasons.length ? `${error.message}: ${reasons.join("; ")}` : error.message;
  } else if (error instanceof Response && error.status >= 400 && error.status < 500) {
    message = error.statusText || `The API answered ${error.status}`;
  } else throw error;
  return message.includes(fileName) ? message : `${fileName}: ${message}`;
}
