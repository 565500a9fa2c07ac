import type { AppRole, UserInfo } from "@contract";

/**
 * The console's mirror of the API's role table (DESIGN.md §4): it only hides or disables
 * controls; the API enforces every rule on its own.
 */
type Who = Pick<UserInfo, "user_type" | "app_roles">;

export const isStaff = (user: Pick<UserInfo, "user_type">) =>
  user.user_type === "super_admin" || user.user_type === "admin";

export function appRoleOf(user: Who, appId: number): AppRole | null {
  if (user.user_type === "super_admin") return "super_admin";
  if (user.user_type === "admin") return "admin";
  return user.app_roles.find((grant) => grant.app_id === appId)?.role ?? null;
}

export type ConsoleAction =
  | "manage_users" // the global Users screen
  | "view_jobs" // background jobs and the queue console
  | "create_client" // onboard and import clients
  | "configure" // a client's agents, knowledge, controls, appearance … (needs appId)
  | "manage_access"; // a client's Access Control (needs appId)

export function userCan(user: Who, action: ConsoleAction, appId?: number): boolean {
  switch (action) {
    case "manage_users":
    case "view_jobs":
    case "create_client":
      return isStaff(user);
    case "configure":
    case "manage_access": {
      const role = appId === undefined ? null : appRoleOf(user, appId);
      return role !== null && role !== "client_user";
    }
  }
}
