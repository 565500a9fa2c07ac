import { userCan } from "~/lib/permissions";
import { ApiError, type ApiClient } from "./api/client.server";
import { getUserInfo } from "./api/resources.server";

/** A client_user may look but not change anything: actions that change a client answer 403. Answers the caller. */
export async function requireConfigure(api: ApiClient, appId: number) {
  const me = await getUserInfo(api);
  if (!userCan(me, "configure", appId)) throw new Response("Forbidden", { status: 403, statusText: "Forbidden" });
  return me;
}

/** A load the API refused, as the spec's 'Error: {message}'. Not found and forbidden stay the page's answer. */
export async function loadOrError<T>(load: () => Promise<T>): Promise<{ data: T; error: null } | { data: null; error: string }> {
  try {
    return { data: await load(), error: null };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { data: null, error: `Error: ${error.message}` };
  }
}
