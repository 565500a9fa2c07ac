import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import type { ConfigDetailsBody, ProgramRecordsList } from "@contract";
import { checkRowsToSave, isNewRow, ROW_ERROR, type TableActionData } from "~/components/editable-table/rows";
import {
  blankFieldRow,
  DATA_MODEL_SCREENS,
  FIELD_CELLS,
  FIELD_REQUIRED_FIELDS,
  fieldFormRow,
  fieldRowNeedsSave,
  type DataModelScreen,
  type FieldFormRow,
} from "~/lib/data-model";
import { ApiError, shownInPlace, type ApiClient } from "./api/client.server";
import { personalisationApi } from "./api/personalisation-api.server";
import { requireClient } from "./clients.server";
import { consoleContext } from "./context.server";
import { loadOrError, requireConfigure } from "./permissions.server";
import { redirectWithToast } from "./toast.server";
import { readForm } from "./http/form-data.server";
import {
  addedOrDiscarded,
  addError,
  cellsByField,
  noRowErrors,
  postedText as text,
  rebaseOnStored,
  saveRows,
  storedRows,
  savedIdOf,
  savePlan,
  tableIntent,
  UNREADABLE_FORM_MESSAGE,
  UNREADABLE_ROW_MESSAGE,
  type ApiRows,
  type ReplyInit,
} from "./table-kit.server";

/*
 * The data model screens: one page per model (the JSON view, Import, Build Recommendation Model
 * for programs) and the field table in a drawer opened by `?edit=1`, so every part works without
 * JavaScript. `?import=1` opens the import question, `?delete=<id>` the 'Confirm Delete' one.
 * The field table is a rows form like Input Prompts: rows posted as `fields[i].*`, an `intent`
 * naming the pressed button, API refusals put back on the cells they are about.
 */

/** Where the page goes back to after an action: its address without the questions it asked. */
function pageAddress(url: URL, keep: "edit" | "none") {
  const next = new URL(url);
  for (const key of ["import", "delete", "index"]) next.searchParams.delete(key);
  if (keep === "none") next.searchParams.delete("edit");
  return `${next.pathname}${next.search}`;
}

export async function dataModelLoader({ request, context, params }: LoaderFunctionArgs, screen: DataModelScreen) {
  const { api, app, apps } = await requireClient(request, consoleContext(context), params.appName);
  const { modelType, title } = DATA_MODEL_SCREENS[screen];
  const url = new URL(request.url);
  const { data: fields, error } = await loadOrError(() => personalisationApi.fields(api, app.id, modelType));
  let programs: ProgramRecordsList | null = null;
  let programsError: string | null = null;
  if (modelType === "program_profile")
    ({ data: programs, error: programsError } = await loadOrError(() => personalisationApi.programs(api, app.id)));
  const deleting = fields?.find((field) => String(field.id) === url.searchParams.get("delete")) ?? null;
  return json({
    client: { id: app.id, name: app.client_name, urlCode: app.url_code },
    title,
    modelType,
    fields: fields ?? [],
    error,
    editing: url.searchParams.has("edit"),
    importing: url.searchParams.has("import"),
    deleting: deleting ? { id: deleting.id, name: deleting.name } : null,
    importChoices: apps
      .filter((other) => other.id !== app.id)
      .map((other) => ({ code: other.url_code, name: other.client_name })),
    programs,
    programsError,
  });
}

export type FieldsActionData = TableActionData<FieldFormRow> & {
  form: "fields";
  /** 'Confirm Delete' asked from the table, its rows as typed kept (the field to delete). */
  asking?: { id: number; name: string };
  /**
   * What a deletion from the table did, said in the drawer: the answer is the page itself (no
   * redirect, which would drop the rows typed), and a toast set now would show only on the next page.
   */
  done?: string;
};
export interface ImportActionData {
  form: "import";
  code: string;
  error: string;
}
export type DataModelActionData = FieldsActionData | ImportActionData;

const PostedForm = z.object({
  intent: text,
  record_id: text,
  import_app_code: text,
  fields: z
    .array(
      z.object({
        id: text,
        group: text,
        name: text,
        definition: text,
        field_type: text,
        loaded: z.object({ group: text, name: text, definition: text, field_type: text }).nullable().default(null),
      }),
    )
    .default([]),
});

const fieldsReply = (data: Omit<FieldsActionData, "form">, init: ReplyInit = 200) =>
  json<DataModelActionData>({ form: "fields", ...data }, init);

/** The required check on the rows to send (never trusting the browser's), then the API rows. */
export function planFieldsSave(
  rows: FieldFormRow[],
  modelType: ConfigDetailsBody["personalisation_config_details"][number]["model_type"],
) {
  const { errors } = checkRowsToSave(rows, fieldRowNeedsSave, FIELD_REQUIRED_FIELDS);
  const payload: ConfigDetailsBody["personalisation_config_details"] = [];
  const sentFrom: number[] = [];
  rows.forEach((row, index) => {
    if (!fieldRowNeedsSave(row)) return;
    if (!isNewRow(row) && (savedIdOf(row.id) === null || !row.loaded))
      addError(errors, index, ROW_ERROR, UNREADABLE_ROW_MESSAGE);
    if (errors[index]) return;
    payload.push({
      ...(isNewRow(row) ? {} : { id: Number(row.id) }),
      // The contract checks the group against the spec's categories and the type against its five.
      group: row.group as never,
      field_type: row.field_type as never,
      name: row.name.trim(),
      definition: row.definition.trim(),
      model_type: modelType,
    });
    sentFrom.push(index);
  });
  return savePlan(payload, sentFrom, errors);
}

const FIELD_API_ROWS: ApiRows = {
  list: "personalisation_config_details",
  cellOf: cellsByField(["group", "name", "definition", "field_type"]),
};

/** Deletes the field of a posted id; answers what to say, the API's refusal included. */
async function deleteField(api: ApiClient, appId: number, postedId: string) {
  const fieldId = savedIdOf(postedId);
  if (fieldId === null) return { ok: false, message: "Unable to delete the field. Please try again." };
  try {
    return { ok: true, message: (await personalisationApi.deleteField(api, appId, fieldId)).message };
  } catch (error) {
    if (!refusal(error)) throw error;
    return { ok: false, message: messageOf(error) };
  }
}

/** A refusal the user can act on (bad input, not found, forbidden, try again shortly) rather than a broken server. */
const refusal = (error: unknown): error is ApiError | Response =>
  error instanceof ApiError ? shownInPlace(error) : error instanceof Response && error.status < 500;
const messageOf = (error: ApiError | Response) =>
  error instanceof ApiError ? error.reason : error.statusText || "Not allowed";

async function saveFields(api: ApiClient, appId: number, posted: FieldFormRow[], modelType: FieldsModel, url: URL) {
  return saveRows({
    rows: posted,
    // What another tab or colleague saved since this page loaded is kept, cell by cell.
    rebase: async (rows) =>
      rebaseOnStored(
        rows,
        storedRows((await personalisationApi.fields(api, appId, modelType)).map(fieldFormRow)),
        FIELD_CELLS,
      ),
    plan: (rows) => planFieldsSave(rows, modelType),
    apiRows: FIELD_API_ROWS,
    send: async (payload) => (await personalisationApi.saveFields(api, appId, payload)).message,
    backTo: { unchanged: pageAddress(url, "edit"), saved: pageAddress(url, "none") },
    reply: fieldsReply,
  });
}
type FieldsModel = ConfigDetailsBody["personalisation_config_details"][number]["model_type"];

/**
 * The data model action (a client user, who may only look, gets 403): rows added or discarded
 * without JavaScript, a field deleted after 'Confirm Delete', the fields saved, the model imported
 * from another client, or the recommendation model build started.
 */
export async function dataModelAction({ request, context, params }: ActionFunctionArgs, screen: DataModelScreen) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  await requireConfigure(api, app.id);
  const { modelType } = DATA_MODEL_SCREENS[screen];
  const url = new URL(request.url);
  const submission = parseWithZod(await readForm(request), { schema: PostedForm, disableAutoCoercion: true });
  if (submission.status !== "success")
    return fieldsReply({ rows: [], errors: [], formError: UNREADABLE_FORM_MESSAGE }, 400);
  const { intent, record_id, import_app_code, fields } = submission.value;
  const rows: FieldFormRow[] = fields.map(({ loaded, ...values }) => ({ ...values, loaded }));

  // Delete from the table's own form: the rows travel with the question and the answer, so what is
  // typed in other rows stays (unsaved, as it was), with or without JavaScript.
  const askDelete = /^ask-delete-(\d{1,12})$/.exec(intent);
  if (askDelete) {
    const row = rows.find((r) => r.id === askDelete[1]);
    if (!row) return fieldsReply({ rows, errors: noRowErrors(rows), formError: "That field is no longer here" }, 404);
    const asking = { id: Number(row.id), name: row.loaded?.name ?? row.name };
    return fieldsReply({ rows, errors: noRowErrors(rows), formError: null, asking });
  }
  if (intent === "cancel-delete") return fieldsReply({ rows, errors: noRowErrors(rows), formError: null });
  const deleteFromTable = /^delete-field-(\d{1,12})$/.exec(intent);
  if (deleteFromTable) {
    const deleted = await deleteField(api, app.id, deleteFromTable[1]);
    const others = rows.filter((row) => row.id !== deleteFromTable[1]);
    return deleted.ok
      ? fieldsReply({ rows: others, errors: noRowErrors(others), formError: null, done: deleted.message })
      : fieldsReply({ rows, errors: noRowErrors(rows), formError: deleted.message }, 400);
  }
  if (intent === "delete-field") {
    const deleted = await deleteField(api, app.id, record_id);
    return redirectWithToast(pageAddress(url, "edit"), {
      type: deleted.ok ? "success" : "error",
      description: deleted.message,
    });
  }
  if (intent === "import") {
    const code = import_app_code.trim();
    if (!code)
      return json<DataModelActionData>(
        { form: "import", code, error: "Choose the client to import from" },
        { status: 400 },
      );
    try {
      const { message } = await personalisationApi.importModel(api, app.id, code, modelType);
      return redirectWithToast(pageAddress(url, "none"), { type: "success", description: message });
    } catch (error) {
      if (!shownInPlace(error)) throw error;
      return json<DataModelActionData>(
        { form: "import", code, error: error.fieldErrors.import_app_code?.[0] ?? error.message },
        error.answerInit,
      );
    }
  }
  if (intent === "build") {
    const back = pageAddress(url, "none");
    if (modelType !== "program_profile")
      return redirectWithToast(back, {
        type: "error",
        description: "Only the program model builds a recommendation model",
      });
    try {
      const { message } = await personalisationApi.buildRecommendationModel(api, app.id);
      return redirectWithToast(back, { type: "success", description: message });
    } catch (error) {
      if (!shownInPlace(error)) throw error;
      return redirectWithToast(back, { type: "error", description: error.reason });
    }
  }

  const table = tableIntent(intent);
  switch (table.kind) {
    case "add-row":
    case "discard-row":
      return fieldsReply(addedOrDiscarded(rows, table, blankFieldRow));
    case "unknown":
      return fieldsReply({ rows, errors: noRowErrors(rows), formError: "Unknown action" }, 400);
    case "save":
      return saveFields(api, app.id, rows, modelType, url);
  }
}
