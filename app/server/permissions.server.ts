import { NOT_YOURS_TO_CHANGE } from "~/lib/messages";
import { userCan, type ConsoleAction } from "~/lib/permissions";
import { ApiError, type ApiClient } from "./api/client.server";
import { getUserInfo } from "./api/users-api.server";

/**
 * The caller, when they may do `action` (in client `appId`); a 403 otherwise. Every action that
 * changes something starts here: the screens only hide what the server refuses anyway.
 */
export async function requireUserWithPermission(api: ApiClient, action: ConsoleAction, appId?: number) {
  const me = await getUserInfo(api);
  if (!userCan(me, action, appId)) throw new Response(NOT_YOURS_TO_CHANGE, { status: 403, statusText: "Forbidden" });
  return me;
}

/** A client_user may look but not change anything: actions that change a client answer 403. Answers the caller. */
export const requireConfigure = (api: ApiClient, appId: number) => requireUserWithPermission(api, "configure", appId);

/** A load the API refused, as the spec's 'Error: {message}'. Not found and forbidden stay the page's answer. */
export async function loadOrError<T>(
  load: () => Promise<T>,
): Promise<{ data: T; error: null } | { data: null; error: string }> {
  try {
    return { data: await load(), error: null };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { data: null, error: `Error: ${error.message}` };
  }
}
