import { json, type ActionFunctionArgs } from "@remix-run/node";
import { userCan } from "~/lib/permissions";
import { shownInPlace } from "~/server/api/client.server";
import { filesApi } from "~/server/api/files-api.server";
import { getUserInfo } from "~/server/api/users-api.server";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { presignEach, UploadStep, type PresignAnswer } from "~/server/files.server";
import { readJson } from "~/server/http/form-data.server";

/** An address for the Files page's script to post to, not a page: a GET is told so, not logged as an error. */
export function loader() {
  return json(
    { message: "This address takes the Files page's uploads (POST) only." },
    { status: 405, headers: { Allow: "POST" } },
  );
}

/**
 * The two API steps of a browser upload, for the Files page's script: register files (answers,
 * file by file, its signed link or why it was refused; the browser then PUTs the bytes itself,
 * with progress) and complete each.
 * The browser never holds an API token, so these pass through the console's session.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const me = await getUserInfo(api);
  if (!userCan(me, "configure", app.id))
    return json({ message: "You do not have permission to upload files" }, { status: 403 });
  const step = UploadStep.safeParse(await readJson(request));
  if (!step.success)
    return json({ message: step.error.issues[0]?.message ?? "Invalid upload request" }, { status: 400 });
  try {
    if (step.data.intent === "presign")
      return json<PresignAnswer>({ uploads: await presignEach(api, app.id, me.id, step.data.file_names) });
    return json(await filesApi.completeUpload(api, step.data.url_id, step.data.s3_path));
  } catch (error) {
    if (!shownInPlace(error)) throw error;
    return json({ message: error.message }, error.answerInit);
  }
}
