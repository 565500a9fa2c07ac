import type { AppRole, AppUserRow, UserRow, UserType } from "@contract";
import { APP_ROLE_LABELS, USER_TYPE_LABELS } from "@contract/values/users";
import type { TableColumn } from "~/components/TableView";

/** The Users and Access Control columns; every one sorts (spec: the shared table's sortable headers). */
export const USERS_COLUMNS: TableColumn[] = [
  { label: "Email", sort: "email" },
  { label: "Name", sort: "name" },
  { label: "Role", sort: "role" },
  { label: "Created At", sort: "created_at" },
];
export const ACCESS_COLUMNS: TableColumn[] = [
  { label: "Email", sort: "email" },
  { label: "Name", sort: "name" },
  { label: "Role", sort: "role" },
  { label: "Onboarded On", sort: "onboarded_on" },
];
export const USERS_SORTS = USERS_COLUMNS.map((c) => c.sort!);
export const ACCESS_SORTS = ACCESS_COLUMNS.map((c) => c.sort!);

/** Roles sort by the label people read; dates by their ISO text, which orders like time. */
export function usersSortValue(user: UserRow, column: string) {
  if (column === "role") return USER_TYPE_LABELS[user.user_type as UserType] ?? user.user_type;
  if (column === "created_at") return user.created_at;
  return column === "name" ? user.name : user.email;
}

export function accessSortValue(user: AppUserRow, column: string) {
  if (column === "role") return APP_ROLE_LABELS[user.app_user.role as AppRole] ?? user.app_user.role;
  if (column === "onboarded_on") return user.app_user.created_at;
  return column === "name" ? user.name : user.email;
}
