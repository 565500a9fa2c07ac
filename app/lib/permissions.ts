import type { UserInfo } from "../../contract";

/**
 * The console's mirror of the API's role table (DESIGN.md §4): it only hides or disables controls;
 * the API enforces every rule on its own.
 */
export const isStaff = (user: Pick<UserInfo, "user_type">) => user.user_type === "super_admin" || user.user_type === "admin";

export type ConsoleAction = "manage_users" | "view_jobs";

export function userCan(user: Pick<UserInfo, "user_type">, action: ConsoleAction) {
  switch (action) {
    case "manage_users":
    case "view_jobs":
      return isStaff(user);
  }
}
