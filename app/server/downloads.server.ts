import { createHmac, timingSafeEqual } from "node:crypto";
import { json, redirectDocument } from "@remix-run/node";
import { ZodError } from "zod";
import type { AdminFile, ClientApp } from "@contract";
import type { ListedFile } from "~/components/downloads/AdminDownloads";
import { agentSegmentOf } from "~/lib/clients";
import { userCan } from "~/lib/permissions";
import { ApiError, type ApiClient } from "./api/client.server";
import { appsApi } from "./api/apps-api.server";
import { downloadsApi } from "./api/downloads-api.server";
import { getUserInfo } from "./api/users-api.server";
import { invariantResponse, requireAgentOf, requireClient } from "./clients.server";
import type { ConsoleContext } from "./context.server";
import { loadOrError } from "./permissions.server";
import { redirectWithToast } from "./toast.server";
import { readForm } from "./http/form-data.server";
import { textOf } from "./http/form-fields.server";

export const NO_DOWNLOAD_URL = "No download URL received";
const FILE_NOT_FOUND = "File not found";
export const downloadFailed = (filename: string, message: string) => `Failed to download ${filename}: ${message}`;

/**
 * Why a call failed, in words for a toast: the API's message (403 and 404 arrive as thrown
 * responses carrying it). A redirect (the session ended) is not a failure of the call: it goes on.
 */
function failureMessage(error: unknown): string {
  if (error instanceof Response) {
    if (error.status >= 300 && error.status < 400) throw error;
    return error.statusText || `The API answered ${error.status}`;
  }
  if (error instanceof ApiError) return error.reason;
  // Anything else is unexpected: kept in the server log, shown by its message.
  console.error(error);
  return error instanceof Error ? error.message : String(error);
}

/**
 * The console's word, signed with its session secret, that the page of client `appId` listed the
 * file `key` under `filename`. A Download button posts it beside the key: the file stays the
 * client's (and downloadable from its page) after a newer one of its type takes its place in the
 * list, as a colleague's export does while the page is open.
 */
const listingProof = (secret: string, appId: number, key: string, filename: string) =>
  createHmac("sha256", secret)
    .update(JSON.stringify(["admin-download", appId, key, filename]))
    .digest("base64url");

function provesListing(context: ConsoleContext, appId: number, key: string, filename: string, proof: string) {
  const posted = Buffer.from(proof);
  return context.config.sessionSecrets.some((secret) => {
    const expected = Buffer.from(listingProof(secret, appId, key, filename));
    return posted.length === expected.length && timingSafeEqual(posted, expected);
  });
}

/**
 * The client's latest admin files, newest first, each with the proof its Download button posts; or,
 * when the API refuses the list, the spec's 'Error: {message}' (never an empty list, which would say
 * the client has no files).
 */
export async function loadDownloads(
  request: Request,
  context: ConsoleContext,
  appName: string | undefined,
): Promise<{ files: ListedFile[]; error: string | null }> {
  const { api, app } = await requireClient(request, context, appName);
  const [secret] = context.config.sessionSecrets;
  const { data, error } = await loadOrError(() => downloadsApi.latest(api, app.id));
  if (!data) return { files: [], error };
  const files = Object.values(data).sort(newestFirst);
  return {
    files: files.map((file) => ({ ...file, proof: listingProof(secret, app.id, file.key, file.filename) })),
    error: null,
  };
}

const newestFirst = (a: AdminFile, b: AdminFile) =>
  b.formatted_timestamp.localeCompare(a.formatted_timestamp) || a.filename.localeCompare(b.filename);

/** Only a link on this host or an http(s) address is followed. */
const isFollowable = (url: string) => /^(\/(?!\/)|https?:\/\/)/i.test(url);

/**
 * A Download button: asks the API for a signed link to the file and sends the browser there (a
 * plain redirect, so it works without JavaScript; the file's own response makes it a download).
 * The file is one this client's page listed (its proof says so) or one the client's list holds
 * now. A failure returns to the page with 'Failed to download {filename}: {message}'.
 */
export async function downloadFile(request: Request, context: ConsoleContext, appName: string | undefined) {
  const { api, app } = await requireClient(request, context, appName);
  const back = new URL(request.url).pathname;
  // Actions run without the parent route's check of the agent in the address.
  if (agentSegmentOf(back)) requireAgentOf(app, back);
  const formData = await readForm(request);
  const key = textOf(formData, "file_key");
  // Only a forged post lacks it (each button names its file): said on the page, as other failures are.
  if (!key) return redirectWithToast(back, { type: "error", description: "Choose a file to download" });

  let url: string;
  let filename = textOf(formData, "filename") || key;
  try {
    // Only a file this client's page listed: the API's call names the file alone, and a System
    // Admin reaches every client's. A post without a valid proof (a page served before proofs)
    // gets the file if the client's list holds it now.
    if (!provesListing(context, app.id, key, filename, textOf(formData, "proof"))) {
      const listed = Object.values(await downloadsApi.latest(api, app.id)).find((file) => file.key === key);
      if (!listed)
        return redirectWithToast(back, { type: "error", description: downloadFailed(filename, FILE_NOT_FOUND) });
      filename = listed.filename;
    }
    const link = await downloadsApi.link(api, key);
    url = link.download_url || link.url;
  } catch (error) {
    // An answer without the link fields fails the contract's schema: that is a missing link too.
    const message = error instanceof ZodError ? NO_DOWNLOAD_URL : failureMessage(error);
    return redirectWithToast(back, { type: "error", description: downloadFailed(filename, message) });
  }
  if (!url || !isFollowable(url)) {
    return redirectWithToast(back, { type: "error", description: downloadFailed(filename, NO_DOWNLOAD_URL) });
  }
  return redirectDocument(url);
}

/**
 * Export App: the API writes the client's export (it then shows in Admin Downloads). Success
 * toasts the API's message ('Export completed successfully'); a failure toasts why.
 */
export async function exportClientApp(api: ApiClient, app: Pick<ClientApp, "id" | "url_code" | "client_name">) {
  invariantResponse(userCan(await getUserInfo(api), "configure", app.id), "You may not export this client", 403);
  const home = `/${app.url_code}`;
  try {
    const result = await appsApi.exportApp(api, app.id);
    return redirectWithToast(home, { type: "success", description: result.message });
  } catch (error) {
    const description = `Failed to export ${app.client_name}: ${failureMessage(error)}`;
    // Too many exports in a minute: the page again under the limit's 429 and its Retry-After, saying so at the button.
    if (error instanceof ApiError && error.status === 429) return json({ exportError: description }, error.answerInit);
    return redirectWithToast(home, { type: "error", description });
  }
}
