import { json } from "@remix-run/node";
import { z } from "zod";
import {
  FIX_ROWS_MESSAGE,
  isNewRow,
  reverted,
  ROW_ERROR,
  type TableActionData,
} from "~/components/editable-table/rows";
import type { FieldErrors } from "~/lib/required-check";
import { ApiError, shownInPlace } from "./api/client.server";
import { redirectWithToast } from "./toast.server";
import { readForm } from "./http/form-data.server";

/*
 * What every rows table of the console (Users, Access Control, Websites, Input Prompts, AI
 * Finetuning, the data model fields) does with its one form: every row posted as indexed fields
 * (`users[0].email`, hidden ids and loaded values) and an `intent` naming the pressed button. The
 * browser checks rows before submitting; the server checks again (never trusting the browser),
 * sends only new or changed rows, and puts the API's per-row refusals (keyed
 * `<list>.<sent index>.<field>`) back on the cells they are about, nothing typed lost.
 */

/** A posted text field; a missing one reads as "". */
export const postedText = z.string().default("");

export const UNREADABLE_FORM_MESSAGE = "The form could not be read; reload the page";
export const UNREADABLE_ROW_MESSAGE = "This row cannot be read; reload the page";

/** A saved row's id as its hidden field posts it, or null when it is not one (a new row, or tampered with). */
export const savedIdOf = (id: string) => (/^\d+$/.test(id) ? Number(id) : null);

// ── Intents ─────────────────────────────────────────────────────────────────────────────────

type RowIntent = "discard-row" | "edit-row" | "cancel-edit";

/** A row's own button names its row (one member per kind, so a `switch` on the kind narrows). */
type RowButton<Kind extends RowIntent> = Kind extends RowIntent ? { kind: Kind; index: number } : never;

export type TableIntent<Kind extends RowIntent = "discard-row"> =
  { kind: "save" } | { kind: "add-row" } | RowButton<Kind> | { kind: "unknown" };

/**
 * `save`, `add-row` (no-JS '+ Add'), or a row's own button without JavaScript:
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
  if (rowIntent && kind && rowIntents.includes(kind)) return { kind, index: Number(rowIntent[2]) } as RowButton<Kind>;
  return { kind: "unknown" };
}

// ── Checking and sending rows ───────────────────────────────────────────────────────────────

/** Aligned with the form's rows: field ⇒ messages (`row` for the whole row), null for a row without any. */
export type RowErrors = (FieldErrors | null)[];

/** No message on any row. */
export const noRowErrors = (rows: readonly unknown[]): RowErrors => rows.map(() => null);

/** What to send: the API rows, and for each the index of the form row it came from. */
export interface SavePlan<Payload> {
  payload: Payload[];
  sentFrom: number[];
  errors: RowErrors;
  /** No row has a message: the payload may be sent. */
  ok: boolean;
}

export const savePlan = <Payload>(payload: Payload[], sentFrom: number[], errors: RowErrors): SavePlan<Payload> => ({
  payload,
  sentFrom,
  errors,
  ok: errors.every((e) => e === null),
});

export function addError(errors: RowErrors, index: number, field: string, message: string) {
  const rowErrors = (errors[index] ??= {});
  (rowErrors[field] ??= []).push(message);
}

// ── Rows edited on a page loaded before another save ────────────────────────────────────────

/** A cell changed by someone else and by this page, to different values (a long text is not quoted). */
export const changedElsewhere = (stored: string) =>
  stored.length > 120 || stored.includes("\n")
    ? "Changed by someone else since you opened this page; save again to keep yours"
    : `Changed to “${stored}” since you opened this page; save again to keep yours`;

/** Posted rows with what was stored meanwhile taken in, and the cells changed both here and elsewhere. */
export interface RebasedRows<Row> {
  rows: Row[];
  errors: RowErrors;
}

/** Rows as loaded (the loader's own mapping), by id: what rebaseOnStored compares a posted row with. */
export const storedRows = <Loaded extends object>(rows: { id: string; loaded: Loaded | null }[]) =>
  new Map(rows.flatMap((row) => (row.loaded ? [[row.id, row.loaded] as const] : [])));

/**
 * Rows edited on a page loaded before someone else (another tab, a colleague) saved the same rows:
 * every cell this page did not change takes the stored value, so that saving one cell never writes
 * back another's old value. A cell this page changed that was also changed elsewhere, to something
 * else, is flagged beside it and now counts the stored value as loaded, so saving again keeps
 * this page's. Rows without a stored counterpart (new, or deleted meanwhile) are left as they are.
 */
export function rebaseOnStored<Cell extends string, Row extends { id: string; loaded: Record<Cell, string> | null }>(
  rows: Row[],
  stored: ReadonlyMap<string, Record<Cell, string>>,
  cells: readonly Cell[],
  /** Whether two texts of a cell are one value (a penalty "1.50" is "1.5"); by default, the same text. */
  same: (cell: Cell, a: string, b: string) => boolean = (_cell, a, b) => a === b,
): RebasedRows<Row> {
  const errors = noRowErrors(rows);
  const rebased = rows.map((row, index) => {
    const now = row.id ? stored.get(row.id) : undefined;
    if (!row.loaded || !now) return row;
    const next = { ...row, loaded: { ...row.loaded } };
    for (const cell of cells) {
      const typed = row[cell as keyof Row] as unknown as string;
      const was = row.loaded[cell];
      if (same(cell, now[cell], was)) continue;
      if (same(cell, typed, was)) (next as Record<string, unknown>)[cell] = now[cell];
      else if (!same(cell, typed, now[cell])) addError(errors, index, cell, changedElsewhere(now[cell]));
      next.loaded[cell] = now[cell];
    }
    return next;
  });
  return { rows: rebased, errors };
}

// ── The API's refusals, back on the rows ────────────────────────────────────────────────────

/** How a table's rows travel to the API, for reading its refusals. */
export interface ApiRows {
  /** The list the rows are sent as (`users`, `websites`, …). */
  list: string;
  /** The cell a refusal's field path (the segments after `<list>.<n>.`) is shown in; ROW_ERROR for the whole row. */
  cellOf: (path: string[]) => string;
}

/**
 * Field paths ⇒ cells by the path's first segment (a refusal about a part of a field is the
 * field's): the table's own cells by name, others renamed; anything else belongs to the row.
 */
export function cellsByField(cells: readonly string[], renamed: Readonly<Record<string, string>> = {}) {
  return ([field]: string[]) =>
    field !== undefined && cells.includes(field)
      ? field
      : field !== undefined && Object.hasOwn(renamed, field)
        ? renamed[field]
        : ROW_ERROR;
}

/**
 * Puts an API refusal back on the rows: `<list>.<n>.<path>` lands on the cell `cellOf(path)` of
 * the form row the n-th sent row came from; messages about no row become the form's message.
 */
export function rowErrorsFromApi(error: ApiError, rows: ApiRows, sentFrom: number[], rowCount: number) {
  const errors: RowErrors = Array.from({ length: rowCount }, () => null);
  const loose: string[] = [];
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const [list, index, ...rest] = path.split(".");
    const formIndex =
      list === rows.list && index !== undefined && /^\d+$/.test(index) ? sentFrom[Number(index)] : undefined;
    if (formIndex === undefined) {
      loose.push(...messages);
      continue;
    }
    for (const message of messages) addError(errors, formIndex, rows.cellOf(rest), message);
  }
  // Refusals that all sit on rows read like the browser's own check; anything else is said as the API said it.
  const formError = loose.length ? loose.join(" ") : errors.some(Boolean) ? FIX_ROWS_MESSAGE : error.message;
  return { errors, formError };
}

// ── Answers ─────────────────────────────────────────────────────────────────────────────────

/** A table's answer: 200, a refusal's status, or an API refusal's `answerInit` (its Retry-After passed on). */
export type ReplyInit = number | ResponseInit;

export const tableReply = <Row>(data: TableActionData<Row>, init: ReplyInit = 200) => json(data, init);

/**
 * What '+ Add' and a new row's discard button do without JavaScript, nothing saved: a blank row on
 * top, or the rows without that one. Only a row never saved is discarded; a saved one stays (it is
 * deleted after a question, where a table deletes at all).
 */
export function addedOrDiscarded<Row extends { id: string }>(
  rows: Row[],
  intent: { kind: "add-row" } | { kind: "discard-row"; index: number },
  blank: () => Row,
): TableActionData<Row> {
  const next =
    intent.kind === "add-row"
      ? [blank(), ...rows]
      : rows.filter((row, index) => index !== intent.index || !isNewRow(row));
  return { rows: next, errors: noRowErrors(next), formError: null };
}

// ── Saving ──────────────────────────────────────────────────────────────────────────────────

interface RowsSave<Row, Payload, Reply extends Response> {
  rows: Row[];
  /**
   * The posted rows on top of what is stored now (rebaseOnStored): a page loaded before another
   * save keeps what that one changed. Cells changed both ways come back flagged (409), nothing sent.
   */
  rebase?: (rows: Row[]) => Promise<RebasedRows<Row>>;
  /** What to send of the rows, and the messages of those that cannot be sent. */
  plan: (rows: Row[]) => SavePlan<Payload>;
  apiRows: ApiRows;
  /** Sends the rows to the API; answers the success toast's message. */
  send: (payload: Payload[]) => Promise<string>;
  /** Where the toast is shown: the same page, or one address when nothing was sent and another after a save. */
  backTo: string | { unchanged: string; saved: string };
  /** The table's answer when it does not redirect: the rows as posted, with their messages. */
  reply: (data: TableActionData<Row>, init: ReplyInit) => Reply;
  /** The ids of the rows to send whose change the person has not confirmed yet (TableKind's `confirms`). */
  unconfirmed?: (rows: Row[]) => string[];
}

/**
 * Saves the posted rows: rebased on what is stored (409 with the cells changed both ways), then
 * what the plan sends: the plan's messages back on the rows (400) when it found any, 'No changes to
 * save' when it sends nothing, else the rows sent and a success toast. An API refusal comes back
 * on the rows it is about, with everything as posted.
 */
export async function saveRows<Row, Payload, Reply extends Response>({
  rows: posted,
  rebase,
  plan: planOf,
  apiRows,
  send,
  backTo,
  reply,
  unconfirmed,
}: RowsSave<Row, Payload, Reply>) {
  const { unchanged, saved } = typeof backTo === "string" ? { unchanged: backTo, saved: backTo } : backTo;
  let rows = posted;
  if (rebase) {
    const rebased = await rebase(posted);
    if (rebased.errors.some(Boolean))
      return reply({ rows: rebased.rows, errors: rebased.errors, formError: FIX_ROWS_MESSAGE }, 409);
    rows = rebased.rows;
  }
  const plan = planOf(rows);
  if (!plan.ok) return reply({ rows, errors: plan.errors, formError: FIX_ROWS_MESSAGE }, 400);
  if (plan.payload.length === 0)
    return redirectWithToast(unchanged, { type: "info", description: "No changes to save" });
  const asked = unconfirmed?.(rows) ?? [];
  if (asked.length) return reply({ rows, errors: noRowErrors(rows), formError: null, toConfirm: asked }, 200);
  try {
    const message = await send(plan.payload);
    return redirectWithToast(saved, { type: "success", description: message });
  } catch (error) {
    if (!shownInPlace(error)) throw error;
    const { errors, formError } = rowErrorsFromApi(error, apiRows, plan.sentFrom, rows.length);
    return reply({ rows, errors, formError }, error.answerInit);
  }
}

// ── The action of a plain rows table ────────────────────────────────────────────────────────

type TableRow = { id: string; editing: boolean; loaded: Record<string, string> | null };

/** A rows table that only adds, edits and saves rows (Users, Access Control). */
export interface TableKind<Row extends TableRow, Payload> {
  /** The rows, the pressed button, and the ids of the rows whose change the page has had confirmed. */
  read: (formData: FormData) => { intent: TableIntent<RowIntent>; rows: Row[]; confirmed?: ReadonlySet<string> } | null;
  blank: () => Row;
  plan: (rows: Row[]) => SavePlan<Payload>;
  apiRows: ApiRows;
  /**
   * A change that must be confirmed before it is saved (a removal): a save holding such a row whose
   * id the form does not post as confirmed answers the ids to confirm, and saves nothing.
   */
  confirms?: (row: Row) => boolean;
}

interface TableSpec<Row extends TableRow, Payload> extends TableKind<Row, Payload> {
  request: Request;
  /** Sends the rows to the API; answers the message for the success toast. */
  save: (payload: Payload[]) => Promise<string>;
  /**
   * The rows as stored now, by id, as `loaded` holds them: a save from a page loaded before
   * another keeps what that one changed (rebaseOnStored).
   */
  stored?: () => Promise<ReadonlyMap<string, Record<string, string>>>;
}

/**
 * The whole action of a rows table: add or discard a row without JavaScript (nothing saved),
 * or check and save. On any error the submitted rows come back as posted, with their messages.
 */
export async function handleTableAction<Row extends TableRow, Payload>(spec: TableSpec<Row, Payload>) {
  const formData = await readForm(spec.request);
  const form = spec.read(formData);
  if (!form) return tableReply<Row>({ rows: [], errors: [], formError: UNREADABLE_FORM_MESSAGE }, 400);
  const { intent, rows, confirmed } = form;
  switch (intent.kind) {
    case "add-row":
    case "discard-row":
      return tableReply(addedOrDiscarded(rows, intent, spec.blank));
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
      return tableReply({ rows: next, errors: noRowErrors(rows), formError: null });
    }
    case "unknown":
      return tableReply({ rows, errors: noRowErrors(rows), formError: "Unknown action" }, 400);
    case "save":
      break;
  }
  const { pathname, search } = new URL(spec.request.url);
  const { stored, confirms } = spec;
  return saveRows({
    rows,
    rebase: stored
      ? async (posted) =>
          rebaseOnStored(posted, await stored(), Object.keys(posted.find((row) => row.loaded)?.loaded ?? {}))
      : undefined,
    plan: spec.plan,
    apiRows: spec.apiRows,
    send: spec.save,
    backTo: `${pathname}${search}`,
    reply: tableReply,
    unconfirmed: confirms
      ? (toSave) => toSave.filter((row) => confirms(row) && !confirmed?.has(row.id)).map((row) => row.id)
      : undefined,
  });
}
