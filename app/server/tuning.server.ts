import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { INPUT_PROMPT_MESSAGES, type FinetuningsUpsertBody, type InputPromptsBody } from "@contract";
import { isNewRow, ROW_ERROR, type TableActionData } from "~/components/editable-table/rows";
import { normalizeNewlines } from "~/lib/controls";
import type { TriggerPointChoice } from "~/lib/trigger-points";
import { checkFinetuningRow } from "~/lib/tuning.schema";
import {
  blankPromptRow,
  FINETUNING_FIELDS,
  finetuningCellOf,
  finetuningFormRow,
  finetuningInputOf,
  finetuningRowNeedsSave,
  finetuningsIntent,
  isNewFinetuning,
  PROMPT_REQUIRED_FIELDS,
  promptFormRow,
  promptRowErrors,
  promptRowNeedsSave,
  sameFinetuningValue,
  tableOfType,
  withBlankFinetuningRow,
  withoutFinetuningRow,
  type FinetuningFormRow,
  type FinetuningsIntent,
  type PromptFormRow,
} from "~/lib/tuning";
import { parseLoadedField } from "./forms.server";
import { ApiError, type ApiClient } from "./api/client.server";
import { tuningApi } from "./api/tuning-api.server";
import { requireClient, requireTriggerPoint } from "./clients.server";
import { consoleContext } from "./context.server";
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
  savedIdOf,
  savePlan,
  storedRows,
  tableIntent,
  tableReply as reply,
  UNREADABLE_FORM_MESSAGE,
  UNREADABLE_ROW_MESSAGE,
  type ApiRows,
  type RowErrors,
  type SavePlan,
  type TableIntent,
} from "./table-kit.server";

/*
 * Input Prompts and AI Finetuning are rows tables in one form each, like Users and Websites: every
 * row posted as indexed fields (`input_prompts[0].internal_name`, `finetunings[2].penalty`, hidden
 * ids and loaded values) and an `intent` naming the pressed button. Adding and removing rows work
 * without JavaScript (the action answers the posted rows plus or minus one); a save checks the
 * rows again, sends only new, changed or deleted ones, and puts the API's refusals
 * (`<list>.<sent index>.<field>`) back on the cells they are about, nothing typed lost.
 */

/**
 * The client of a tuning screen, the trigger point it edits (`?trigger_point=` at these
 * client-level paths), a prompt to ask about (`?delete=`) and the address to come back to.
 */
export async function tuningScreen({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const url = new URL(request.url);
  const choice = requireTriggerPoint(app, url.pathname, url.searchParams);
  const deleteParam = url.searchParams.get("delete");
  url.searchParams.delete("delete");
  return { api, app, choice, deleteParam, backTo: `${url.pathname}${url.search}` };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

// ── Input prompts ───────────────────────────────────────────────────────────────────────────

export type PromptsActionData = TableActionData<PromptFormRow>;

const PromptsForm = z.object({
  intent: text,
  prompt_id: text,
  input_prompts: z
    .array(
      z.object({
        id: text,
        internal_name: text,
        prompt_input_raw: text,
        loaded: z.object({ internal_name: text, prompt_input_raw: text }).nullable().default(null),
      }),
    )
    .default([]),
});

type PromptsIntent = TableIntent | { kind: "delete"; promptId: number | null };

export function readPromptsForm(formData: FormData): { intent: PromptsIntent; rows: PromptFormRow[] } | null {
  const submission = parseWithZod(formData, { schema: PromptsForm, disableAutoCoercion: true });
  if (submission.status !== "success") return null;
  const { intent, prompt_id, input_prompts } = submission.value;
  // Browsers send a textarea's line breaks as CRLF; the prompt is stored as typed, with LF.
  const rows = input_prompts.map(({ id, internal_name, prompt_input_raw, loaded }) => ({
    id,
    internal_name,
    prompt_input_raw: normalizeNewlines(prompt_input_raw),
    loaded: loaded
      ? { internal_name: loaded.internal_name, prompt_input_raw: normalizeNewlines(loaded.prompt_input_raw) }
      : null,
  }));
  if (intent === "delete") return { intent: { kind: "delete", promptId: savedIdOf(prompt_id) }, rows };
  return { intent: tableIntent(intent), rows };
}

/** The required check (spec section 5) and the API's rules on the prompts to send, then the API rows. */
export function planPromptsSave(
  rows: PromptFormRow[],
  triggerPoint: string,
): SavePlan<InputPromptsBody["input_prompts"][number]> {
  const errors: RowErrors = rows.map((row) => (promptRowNeedsSave(row) ? promptRowErrors(row) : null));
  const payload: InputPromptsBody["input_prompts"] = [];
  const sentFrom: number[] = [];
  rows.forEach((row, index) => {
    if (!promptRowNeedsSave(row)) return;
    const id = savedIdOf(row.id);
    if (!isNewRow(row) && (id === null || !row.loaded)) addError(errors, index, ROW_ERROR, UNREADABLE_ROW_MESSAGE);
    if (errors[index]) return;
    payload.push({
      ...(id ? { id } : {}),
      internal_name: row.internal_name.trim(),
      prompt_input_raw: row.prompt_input_raw,
      trigger_point: triggerPoint,
    });
    sentFrom.push(index);
  });
  return savePlan(payload, sentFrom, errors);
}

const PROMPT_API_ROWS: ApiRows = { list: "input_prompts", cellOf: cellsByField(["internal_name", "prompt_input_raw"]) };

async function deletePrompt(api: ApiClient, appId: number, promptId: number | null, backTo: string) {
  if (promptId === null)
    return redirectWithToast(backTo, { type: "error", description: INPUT_PROMPT_MESSAGES.deleteFailed });
  try {
    const { message } = await tuningApi.deleteInputPrompt(api, appId, promptId);
    return redirectWithToast(backTo, { type: "success", description: message });
  } catch (error) {
    // The API client throws 403/404 as responses for error boundaries; here they are a failed delete.
    if (!(error instanceof ApiError) && !(error instanceof Response && error.status < 500)) throw error;
    return redirectWithToast(backTo, { type: "error", description: INPUT_PROMPT_MESSAGES.deleteFailed });
  }
}

/**
 * The Input Prompts action (the caller has checked the user may configure the client): add or
 * discard a row without JavaScript, delete a saved prompt (after the confirm step), or save.
 */
export async function handlePromptsAction({
  request,
  api,
  appId,
  choice,
  backTo,
}: {
  request: Request;
  api: ApiClient;
  appId: number;
  choice: TriggerPointChoice;
  backTo: string;
}) {
  const form = readPromptsForm(await readForm(request));
  if (!form) return reply<PromptFormRow>({ rows: [], errors: [], formError: UNREADABLE_FORM_MESSAGE }, 400);
  const { intent, rows } = form;
  switch (intent.kind) {
    case "delete":
      return deletePrompt(api, appId, intent.promptId, backTo);
    case "add-row":
    case "discard-row":
      return reply(addedOrDiscarded(rows, intent, blankPromptRow));
    case "unknown":
      return reply({ rows, errors: noRowErrors(rows), formError: "Unknown action" }, 400);
    case "save":
      break;
  }
  return saveRows({
    rows,
    // What another tab or colleague saved since this page loaded is kept, cell by cell.
    rebase: async (posted) =>
      rebaseOnStored(
        posted,
        storedRows((await tuningApi.inputPrompts(api, appId, choice.triggerPoint)).map(promptFormRow)),
        PROMPT_REQUIRED_FIELDS,
      ),
    plan: (toSave) => planPromptsSave(toSave, choice.triggerPoint),
    apiRows: PROMPT_API_ROWS,
    send: async (payload) => {
      await tuningApi.saveInputPrompts(api, appId, payload);
      return INPUT_PROMPT_MESSAGES.saved;
    },
    backTo,
    reply,
  });
}

// ── AI Finetuning ───────────────────────────────────────────────────────────────────────────

export type FinetuningsActionData = TableActionData<FinetuningFormRow>;

const FinetuningsForm = z.object({
  intent: text,
  finetunings: z
    .array(
      z.object({
        id: text,
        trigger_point: text,
        finetuning_type: text,
        pattern: text,
        penalty: text,
        metadata: text,
        deleted: text,
        loaded: text,
      }),
    )
    .default([]),
});

const Loaded = z.object({
  trigger_point: z.string(),
  finetuning_type: z.string(),
  pattern: z.string(),
  penalty: z.string(),
  metadata: z.string(),
});

const parseLoaded = (raw: string): FinetuningFormRow["loaded"] => parseLoadedField(Loaded, raw);

export function readFinetuningsForm(
  formData: FormData,
): { intent: FinetuningsIntent; rows: FinetuningFormRow[] } | null {
  const submission = parseWithZod(formData, { schema: FinetuningsForm, disableAutoCoercion: true });
  if (submission.status !== "success") return null;
  // Each row sits in the table of its type; one of no table's type could not be shown with its message.
  if (submission.value.finetunings.some((row) => !tableOfType(row.finetuning_type))) return null;
  const rows = submission.value.finetunings.map(({ deleted, loaded, metadata, ...values }) => ({
    ...values,
    metadata: normalizeNewlines(metadata),
    deleted: deleted === "true",
    loaded: parseLoaded(loaded),
  }));
  return { intent: finetuningsIntent(submission.value.intent), rows };
}

const FINETUNING_API_ROWS: ApiRows = { list: "finetunings", cellOf: finetuningCellOf };

/** The contract's check on every row to send, then the API rows (deletions included). */
export function planFinetuningsSave(rows: FinetuningFormRow[]): SavePlan<FinetuningsUpsertBody["finetunings"][number]> {
  const errors: RowErrors = noRowErrors(rows);
  const payload: FinetuningsUpsertBody["finetunings"] = [];
  const sentFrom: number[] = [];
  rows.forEach((row, index) => {
    if (!finetuningRowNeedsSave(row)) return;
    if (!isNewFinetuning(row) && !row.loaded) addError(errors, index, ROW_ERROR, UNREADABLE_ROW_MESSAGE);
    const check = checkFinetuningRow(row);
    if (check.errors) errors[index] = { ...errors[index], ...check.errors };
    if (errors[index]) return;
    payload.push(finetuningInputOf(row));
    sentFrom.push(index);
  });
  return savePlan(payload, sentFrom, errors);
}

function savedMessage(saved: number, deleted: number) {
  const parts = [
    saved ? `${plural(saved, "rule")} saved` : "",
    deleted ? `${plural(deleted, "rule")} deleted` : "",
  ].filter(Boolean);
  return `AI Finetuning saved${parts.length ? `: ${parts.join(", ")}` : ""}`;
}

/**
 * The AI Finetuning action (the caller has checked the user may configure the client): add a row
 * to one table or delete one without JavaScript, or save all three tables at once.
 */
export async function handleFinetuningsAction({
  request,
  api,
  appId,
  backTo,
}: {
  request: Request;
  api: ApiClient;
  appId: number;
  backTo: string;
}) {
  const form = readFinetuningsForm(await readForm(request));
  if (!form) return reply<FinetuningFormRow>({ rows: [], errors: [], formError: UNREADABLE_FORM_MESSAGE }, 400);
  const { intent, rows } = form;
  switch (intent.kind) {
    case "add-row": {
      const next = withBlankFinetuningRow(rows, intent.table);
      return reply({ rows: next, errors: noRowErrors(next), formError: null });
    }
    case "delete-row": {
      const next = withoutFinetuningRow(rows, intent.index);
      return reply({ rows: next, errors: noRowErrors(next), formError: null });
    }
    case "unknown":
      return reply({ rows, errors: noRowErrors(rows), formError: "Unknown action" }, 400);
    case "save":
      break;
  }
  return saveRows({
    rows,
    rebase: async (posted) =>
      rebaseOnStored(
        posted,
        storedRows((await tuningApi.finetunings(api, appId)).map(finetuningFormRow)),
        FINETUNING_FIELDS,
        sameFinetuningValue,
      ),
    plan: planFinetuningsSave,
    apiRows: FINETUNING_API_ROWS,
    send: async (payload) => {
      const result = await tuningApi.saveFinetunings(api, appId, payload);
      return savedMessage(result.saved, result.deleted);
    },
    backTo,
    reply,
  });
}
