import type { AppUserRow, UserRow } from "@contract";
import { EMAIL_INVALID, isEmailAddress } from "@contract/values/users";
import { changedFields, isNewRow } from "~/components/editable-table/rows";
import { requiredErrors, type FieldErrors } from "~/lib/required-check";

/**
 * The rows of the Users and Access Control tables as the form carries them: every value a
 * string, plus the values the loader gave (`loaded`, posted back as hidden fields) so the action
 * can send only new or changed rows and never rewrite an untouched one.
 */
export interface UserFormRow {
  /** "" for a row not saved yet. */
  id: string;
  email: string;
  name: string;
  user_type: string;
  /** An existing row opened with its Edit action: shown as inputs rather than text. */
  editing: boolean;
  loaded: { email: string; name: string; user_type: string } | null;
}

export interface AccessFormRow {
  id: string;
  email: string;
  name: string;
  /** Only used when the row creates a new account. */
  user_type: string;
  role: string;
  /** Marked with the row's Remove control: the spec's action value 'delete'. */
  remove: boolean;
  /** An existing row opened with its Edit action: shown as inputs rather than text. */
  editing: boolean;
  loaded: { email: string; name: string; role: string } | null;
}

/** Per screen (spec section 5): Users need email, name and user_type; Access Control email, name and role. */
export const USER_REQUIRED_FIELDS = ["email", "name", "user_type"] as const;
export const ACCESS_REQUIRED_FIELDS = ["email", "name", "role"] as const;
/**
 * The Access Control form's field listing the rows (by id, comma-separated) whose removal the page
 * has had confirmed: a save removing anyone else is answered with the question first.
 */
export const ACCESS_CONFIRMED_FIELD = "removals_confirmed";

/** A new Users row starts as user_type user (spec section 6: the default user_type). */
export const blankUserRow = (): UserFormRow => ({
  id: "",
  email: "",
  name: "",
  user_type: "user",
  editing: true,
  loaded: null,
});

/** A new Access Control row defaults to user_type user and role client_user (spec section 2). */
export const blankAccessRow = (role = "client_user"): AccessFormRow => ({
  id: "",
  email: "",
  name: "",
  user_type: "user",
  role,
  remove: false,
  editing: true,
  loaded: null,
});

export function userFormRow(user: UserRow): UserFormRow {
  const values = { email: user.email, name: user.name, user_type: user.user_type };
  return { id: String(user.id), ...values, editing: false, loaded: values };
}

export function accessFormRow(user: AppUserRow): AccessFormRow {
  const values = { email: user.email, name: user.name, role: user.app_user.role };
  return { id: String(user.id), ...values, user_type: user.user_type, remove: false, editing: false, loaded: values };
}

/** A Users row to send: new, or changed since it was loaded. */
export const userRowNeedsSave = (row: UserFormRow) =>
  isNewRow(row) || changedFields(row, USER_REQUIRED_FIELDS).size > 0;

/** An Access Control row to send: new, changed, or an existing one marked for removal. */
export function accessRowNeedsSave(row: AccessFormRow) {
  if (row.remove) return !isNewRow(row);
  return isNewRow(row) || changedFields(row, ACCESS_REQUIRED_FIELDS).size > 0;
}

export const userRowToCheck = userRowNeedsSave;
export const accessRowToCheck = (row: AccessFormRow) => !row.remove && accessRowNeedsSave(row);

/**
 * A row's problems before a save: its required fields (spec section 5), and an address the API
 * would refuse, so that one save attempt names every problem of the row at once.
 */
function personRowErrors<Row extends { email: string }>(row: Row, required: readonly (keyof Row & string)[]) {
  const errors: FieldErrors = requiredErrors(row, required);
  const email = row.email.trim().toLowerCase();
  if (email && !isEmailAddress(email)) (errors.email ??= []).push(EMAIL_INVALID);
  return Object.keys(errors).length ? errors : null;
}

export const userRowErrors = (row: UserFormRow) => personRowErrors(row, USER_REQUIRED_FIELDS);
export const accessRowErrors = (row: AccessFormRow) => personRowErrors(row, ACCESS_REQUIRED_FIELDS);
