import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { AppRole, UserType, type AppUsersUpsertBody, type UsersUpsertBody } from "@contract";
import { checkRowsToSave, ROW_ERROR } from "~/components/editable-table/rows";
import {
  ACCESS_CONFIRMED_FIELD,
  ACCESS_REQUIRED_FIELDS,
  accessRowNeedsSave,
  accessRowToCheck,
  blankAccessRow,
  blankUserRow,
  USER_REQUIRED_FIELDS,
  userRowNeedsSave,
  userRowToCheck,
  type AccessFormRow,
  type UserFormRow,
} from "~/components/users/rows";
import {
  addError,
  cellsByField,
  postedText as text,
  savedIdOf,
  savePlan,
  tableIntent,
  UNREADABLE_ROW_MESSAGE,
  type ApiRows,
  type SavePlan,
  type TableKind,
} from "./table-kit.server";

/*
 * The Users and Access Control tables are one form each: every row posted as indexed fields
 * (`users[0].email`, hidden `users[0].id` and `users[0].loaded.*`), and an `intent` saying what the
 * pressed button wants. The browser checks rows before submitting; these functions check again
 * (never trusting the browser), send only new or changed rows, and put the API's per-row errors
 * (keyed `users.<sent index>.<field>`) back on the rows they came from.
 */

/** What every posted row carries, on both screens. */
const postedPerson = { id: text, email: text, name: text };

const UsersForm = z.object({
  intent: text,
  users: z
    .array(
      z.object({
        ...postedPerson,
        user_type: text,
        editing: text,
        loaded: z.object({ email: text, name: text, user_type: text }).nullable().default(null),
      }),
    )
    .default([]),
});

/** The ids of the rows whose removal the page has had confirmed, comma-separated (ACCESS_CONFIRMED_FIELD). */
const confirmedIds = z.string().max(20_000).default("");

const AccessForm = z.object({
  intent: text,
  [ACCESS_CONFIRMED_FIELD]: confirmedIds,
  users: z
    .array(
      z.object({
        ...postedPerson,
        user_type: text,
        role: text,
        action: text,
        editing: text,
        loaded: z.object({ email: text, name: text, role: text }).nullable().default(null),
      }),
    )
    .default([]),
});

/** The Users and Access Control tables open existing rows for editing and cancel that, besides discarding new ones. */
const PEOPLE_ROW_INTENTS = ["discard-row", "edit-row", "cancel-edit"] as const;

export function readUsersForm(formData: FormData) {
  const submission = parseWithZod(formData, { schema: UsersForm, disableAutoCoercion: true });
  if (submission.status !== "success") return null;
  const rows: UserFormRow[] = submission.value.users.map(({ id, email, name, user_type, editing, loaded }) => ({
    id,
    email,
    name,
    user_type,
    editing: editing === "true",
    loaded,
  }));
  return { intent: tableIntent(submission.value.intent, PEOPLE_ROW_INTENTS), rows };
}

export function readAccessForm(formData: FormData) {
  const submission = parseWithZod(formData, { schema: AccessForm, disableAutoCoercion: true });
  if (submission.status !== "success") return null;
  const rows: AccessFormRow[] = submission.value.users.map(
    ({ id, email, name, user_type, role, action, editing, loaded }) => ({
      id,
      email,
      name,
      user_type: user_type || "user",
      role,
      remove: action === "delete",
      editing: editing === "true",
      loaded,
    }),
  );
  const confirmed = new Set(submission.value[ACCESS_CONFIRMED_FIELD].split(",").filter(Boolean));
  return { intent: tableIntent(submission.value.intent, PEOPLE_ROW_INTENTS), rows, confirmed };
}

export function planUsersSave(rows: UserFormRow[]): SavePlan<UsersUpsertBody["users"][number]> {
  const { errors } = checkRowsToSave(rows, userRowToCheck, USER_REQUIRED_FIELDS);
  const payload: UsersUpsertBody["users"] = [];
  const sentFrom: number[] = [];
  rows.forEach((row, index) => {
    if (!userRowNeedsSave(row)) return;
    const id = savedIdOf(row.id);
    if (row.id && id === null) addError(errors, index, ROW_ERROR, UNREADABLE_ROW_MESSAGE);
    const userType = UserType.safeParse(row.user_type);
    if (row.user_type && !userType.success) addError(errors, index, "user_type", "Choose one of the offered roles");
    if (errors[index] || !userType.success) return;
    payload.push({ ...(id ? { id } : {}), email: row.email, name: row.name, user_type: userType.data });
    sentFrom.push(index);
  });
  return savePlan(payload, sentFrom, errors);
}

export function planAccessSave(rows: AccessFormRow[]): SavePlan<AppUsersUpsertBody["users"][number]> {
  const { errors } = checkRowsToSave(rows, accessRowToCheck, ACCESS_REQUIRED_FIELDS);
  const payload: AppUsersUpsertBody["users"] = [];
  const sentFrom: number[] = [];
  rows.forEach((row, index) => {
    if (!accessRowNeedsSave(row)) return;
    const id = savedIdOf(row.id);
    if (row.id && id === null) addError(errors, index, ROW_ERROR, UNREADABLE_ROW_MESSAGE);
    if (row.remove) {
      const role = AppRole.safeParse(row.loaded?.role);
      if (!row.loaded || !id || !role.success) {
        if (!errors[index]) addError(errors, index, ROW_ERROR, UNREADABLE_ROW_MESSAGE);
        return;
      }
      // A removal sends the person as loaded: edits made to a row being removed are moot.
      payload.push({
        id,
        email: row.loaded.email,
        name: row.loaded.name,
        app_user: { role: role.data },
        action: "delete",
      });
      sentFrom.push(index);
      return;
    }
    const role = AppRole.safeParse(row.role);
    if (row.role && !role.success) addError(errors, index, "role", "Choose one of the offered roles");
    const userType = UserType.safeParse(row.user_type || "user");
    if (errors[index] || !role.success) return;
    payload.push({
      ...(id ? { id } : { user_type: userType.success ? userType.data : "user" }),
      email: row.email,
      name: row.name,
      app_user: { role: role.data },
      action: "add",
    });
    sentFrom.push(index);
  });
  return savePlan(payload, sentFrom, errors);
}

/**
 * The API's field paths (after `users.<n>.`) ⇒ the tables' cells: a person's role travels as
 * `app_user.role`; anything else belongs to the row.
 */
const PEOPLE_API_ROWS: ApiRows = {
  list: "users",
  cellOf: cellsByField(["email", "name", "user_type", "role"], { app_user: "role" }),
};

/** The Users table (/users): every account and its type. */
export const usersTable: TableKind<UserFormRow, UsersUpsertBody["users"][number]> = {
  read: readUsersForm,
  blank: blankUserRow,
  plan: planUsersSave,
  apiRows: PEOPLE_API_ROWS,
};

/** The Access Control table: the people of one client and their roles there. */
export const accessTable: TableKind<AccessFormRow, AppUsersUpsertBody["users"][number]> = {
  read: readAccessForm,
  blank: () => blankAccessRow(),
  plan: planAccessSave,
  apiRows: PEOPLE_API_ROWS,
  // Taking someone's access away is asked about first: in the browser when Remove is ticked, and
  // without JavaScript by the save's answer, which lists who would lose it (AccessTable).
  confirms: (row) => row.remove,
};
