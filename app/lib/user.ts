import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { userCan, type ConsoleAction } from "./permissions";

/**
 * The signed-in person as the root loader read them for this page, or null on a signed-out page.
 * Screens decide what to show with it; the server decides what may be done (requireUserWithPermission).
 */
export function useOptionalUser() {
  return useRouteLoaderData<typeof rootLoader>("root")?.signedIn?.user ?? null;
}

/** Whether the signed-in person may do `action` (in client `appId`): what a screen shows as editable. */
export function useUserCan(action: ConsoleAction, appId?: number) {
  const me = useOptionalUser();
  return Boolean(me && userCan(me, action, appId));
}

/** Whether the signed-in person may change client `appId`'s configuration (a client_user may only look). */
export const useCanConfigure = (appId: number) => useUserCan("configure", appId);
