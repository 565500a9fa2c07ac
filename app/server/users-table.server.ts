import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import { z } from "zod";
import { AppRole, UserType, type AppUsersUpsertBody, type UsersUpsertBody } from "@contract";
import {
  checkRowsToSave,
  FIX_ROWS_MESSAGE,
  isNewRow,
  reverted,
  ROW_ERROR,
  type TableActionData,
} from "~/components/editable-table/rows";
import {
  ACCESS_REQUIRED_FIELDS,
  accessRowNeedsSave,
  accessRowToCheck,
  USER_REQUIRED_FIELDS,
  userRowNeedsSave,
  userRowToCheck,
  type AccessFormRow,
  type UserFormRow,
} from "~/components/users/rows";
import type { FieldErrors } from "~/lib/required-check";
import { ApiError } from "./api/client.server";
import { redirectWithToast } from "./toast.server";
import { readForm } from "./http/form-data.server";

/*
 * The Users and Access Control tables are one form each: every row posted as indexed fields
 * (`users[0].email`, hidden `users[0].id` and `users[0].loaded.*`), and an `intent` saying what the
 * pressed button wants. The browser checks rows before submitting; these functions check again
 * (never trusting the browser), send only new or changed rows, and put the API's per-row errors
 * (keyed `users.<sent index>.<field>`) back on the rows they came from.
 */

const text = z.string().default("");

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

const AccessForm = z.object({
  intent: text,
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

type RowIntent = "discard-row" | "edit-row" | "cancel-edit";

export type TableIntent<Kind extends RowIntent = "discard-row"> =
  { kind: "save" } | { kind: "add-row" } | { kind: Kind; index: number } | { kind: "unknown" };

/**
 * `save`, `add-row` (no-JS '+ Add User'), or a row's own button without JavaScript:
 * `discard-row:<index>` (a new row) and, where a table offers them, `edit-row:<index>` and
 * `cancel-edit:<index>` (an existing one). Anything else is unknown.
 */
export function tableIntent<Kind extends RowIntent = "discard-row">(
  value: string,
  rowIntents: readonly Kind[] = ["discard-row" as Kind],
): TableIntent<Kind> {
  if (value === "save") return { kind: "save" };
  if (value === "add-row") return { kind: "add-row" };
  const rowIntent = /^([a-z-]+):(\d+)$/.exec(value);
  const kind = rowIntent?.[1] as Kind | undefined;
  if (rowIntent && kind && rowIntents.includes(kind)) return { kind, index: Number(rowIntent[2]) };
  return { kind: "unknown" };
}

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
  return { intent: tableIntent(submission.value.intent, PEOPLE_ROW_INTENTS), rows };
}

/** What to send: the API rows, and for each the index of the form row it came from. */
interface SavePlan<Payload> {
  payload: Payload[];
  sentFrom: number[];
  errors: (FieldErrors | null)[];
  ok: boolean;
}

const idOf = (id: string) => (/^\d+$/.test(id) ? Number(id) : null);

function addError(errors: (FieldErrors | null)[], index: number, field: string, message: string) {
  const rowErrors = (errors[index] ??= {});
  (rowErrors[field] ??= []).push(message);
}

export function planUsersSave(rows: UserFormRow[]): SavePlan<UsersUpsertBody["users"][number]> {
  const { errors } = checkRowsToSave(rows, userRowToCheck, USER_REQUIRED_FIELDS);
  const payload: UsersUpsertBody["users"] = [];
  const sentFrom: number[] = [];
  rows.forEach((row, index) => {
    if (!userRowNeedsSave(row)) return;
    const id = idOf(row.id);
    if (row.id && id === null) addError(errors, index, ROW_ERROR, "This row cannot be read; reload the page");
    const userType = UserType.safeParse(row.user_type);
    if (row.user_type && !userType.success) addError(errors, index, "user_type", "Choose one of the offered roles");
    if (errors[index] || !userType.success) return;
    payload.push({ ...(id ? { id } : {}), email: row.email, name: row.name, user_type: userType.data });
    sentFrom.push(index);
  });
  return { payload, sentFrom, errors, ok: errors.every((e) => e === null) };
}

export function planAccessSave(rows: AccessFormRow[]): SavePlan<AppUsersUpsertBody["users"][number]> {
  const { errors } = checkRowsToSave(rows, accessRowToCheck, ACCESS_REQUIRED_FIELDS);
  const payload: AppUsersUpsertBody["users"] = [];
  const sentFrom: number[] = [];
  rows.forEach((row, index) => {
    if (!accessRowNeedsSave(row)) return;
    const id = idOf(row.id);
    if (row.id && id === null) addError(errors, index, ROW_ERROR, "This row cannot be read; reload the page");
    if (row.remove) {
      const role = AppRole.safeParse(row.loaded?.role);
      if (!row.loaded || !id || !role.success) {
        if (!errors[index]) addError(errors, index, ROW_ERROR, "This row cannot be read; reload the page");
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
  return { payload, sentFrom, errors, ok: errors.every((e) => e === null) };
}

/** API field paths (after `users.<n>.`) ⇒ the table's cell names; anything else belongs to the row. */
const API_FIELDS: Record<string, string> = {
  email: "email",
  name: "name",
  user_type: "user_type",
  role: "role",
  "app_user.role": "role",
  app_user: "role",
};

/**
 * Puts an API refusal back on the rows: `users.<n>.<field>` lands on the form row the n-th sent
 * row came from; messages the API gives for no row become the form's error.
 */
export function rowErrorsFromApi(
  error: ApiError,
  sentFrom: number[],
  rowCount: number,
  fields: Record<string, string> = {},
) {
  const errors: (FieldErrors | null)[] = Array.from({ length: rowCount }, () => null);
  const loose: string[] = [];
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const match = /^users\.(\d+)(?:\.(.+))?$/.exec(path);
    const formIndex = match ? sentFrom[Number(match[1])] : undefined;
    if (!match || formIndex === undefined) {
      loose.push(...messages);
      continue;
    }
    const field = (match[2] && (fields[match[2]] ?? API_FIELDS[match[2]])) || ROW_ERROR;
    for (const message of messages) addError(errors, formIndex, field, message);
  }
  // Refusals that all sit on rows read like the browser's own check; anything else is said as the API said it.
  const formError = loose.length ? loose.join(" ") : errors.some(Boolean) ? FIX_ROWS_MESSAGE : error.message;
  return { errors, formError };
}

export const tableReply = <Row>(data: TableActionData<Row>, status = 200) => json(data, { status });

type TableRow = { id: string; editing: boolean; loaded: Record<string, string> | null };

interface TableSpec<Row extends TableRow, Payload> {
  request: Request;
  read: (formData: FormData) => { intent: TableIntent<RowIntent>; rows: Row[] } | null;
  blank: () => Row;
  plan: (rows: Row[]) => SavePlan<Payload>;
  /** Sends the rows to the API; answers the message for the success toast. */
  save: (payload: Payload[]) => Promise<string>;
  /** API field names to cell names where they differ from the defaults. */
  apiFields?: Record<string, string>;
}

/**
 * The whole action of a rows table: add or discard a row without JavaScript (nothing saved),
 * or check and save. On any error the submitted rows come back as posted, with their messages.
 */
export async function handleTableAction<Row extends TableRow, Payload>(spec: TableSpec<Row, Payload>) {
  const formData = await readForm(spec.request);
  const form = spec.read(formData);
  if (!form)
    return tableReply<Row>({ rows: [], errors: [], formError: "The form could not be read; reload the page" }, 400);
  const { intent, rows } = form;
  const none = () => rows.map(() => null);
  switch (intent.kind) {
    case "add-row": {
      const next = [spec.blank(), ...rows];
      return tableReply({ rows: next, errors: next.map(() => null), formError: null });
    }
    case "discard-row": {
      // Only a row that was never saved can be discarded; existing ones stay.
      const next = rows.filter((row, index) => index !== intent.index || !isNewRow(row));
      return tableReply({ rows: next, errors: next.map(() => null), formError: null });
    }
    case "edit-row":
    case "cancel-edit": {
      // Opens an existing row as inputs, or puts it back as loaded; nothing is saved.
      const next = rows.map((row, index) =>
        index !== intent.index || isNewRow(row)
          ? row
          : intent.kind === "edit-row"
            ? { ...row, editing: true }
            : reverted(row),
      );
      return tableReply({ rows: next, errors: none(), formError: null });
    }
    case "unknown":
      return tableReply({ rows, errors: none(), formError: "Unknown action" }, 400);
    case "save":
      break;
  }
  const plan = spec.plan(rows);
  if (!plan.ok) return tableReply({ rows, errors: plan.errors, formError: FIX_ROWS_MESSAGE }, 400);
  const { pathname, search } = new URL(spec.request.url);
  if (plan.payload.length === 0)
    return redirectWithToast(`${pathname}${search}`, { type: "info", description: "No changes to save" });
  try {
    const message = await spec.save(plan.payload);
    return redirectWithToast(`${pathname}${search}`, { type: "success", description: message });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const { errors, formError } = rowErrorsFromApi(error, plan.sentFrom, rows.length, spec.apiFields);
    return tableReply({ rows, errors, formError }, error.status);
  }
}
