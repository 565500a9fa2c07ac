import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import { z } from "zod";
import type { ClientApp, WebsiteInput } from "@contract";
import { checkRowsToSave, FIX_ROWS_MESSAGE, ROW_ERROR, type TableActionData } from "~/components/editable-table/rows";
import {
  isNewWebsiteRow,
  isScanMode,
  MENU_ACTIONS,
  parsePatterns,
  WEBSITE_REQUIRED_FIELDS,
  websiteRowNeedsSave,
  websitesIntent,
  withBlankRow,
  type MenuAction,
  type WebsiteFormRow,
  type WebsitesIntent,
} from "~/lib/websites";
import { parseLoadedField } from "./forms.server";
import { ApiError, shownInPlace, type ApiClient } from "./api/client.server";
import { knowledgeApi } from "./api/knowledge-api.server";
import { findWebsite } from "./urls.server";
import { redirectWithToast } from "./toast.server";
import { readForm } from "./http/form-data.server";
import { GATE_MESSAGE, knowledgeGate, type KnowledgeGate } from "./production-gate.server";
import {
  addError,
  cellsByField,
  noRowErrors,
  postedText as text,
  rowErrorsFromApi,
  savedIdOf,
  savePlan,
  UNREADABLE_FORM_MESSAGE,
  UNREADABLE_ROW_MESSAGE,
  type ApiRows,
  type SavePlan,
  type ReplyInit,
} from "./table-kit.server";

/*
 * The Websites table is one form: every row posted as indexed fields (`websites[0].url`, checkboxes
 * `websites[0].tags`, hidden `websites[0].id` and `websites[0].loaded` holding what the loader gave
 * as JSON) and an `intent` naming the pressed button. The action checks the rows again, sends only
 * new or changed ones, and puts the API's refusals (`websites.<sent index>.<field>`) back on the rows
 * they came from. Row-menu buttons ask for a status on a whole website or a sitemap refresh.
 */

/** What the action answers when it does not redirect: the rows as posted, their messages, maybe a question. */
export interface WebsitesActionData extends TableActionData<WebsiteFormRow> {
  /** Without JavaScript, Delete URLs first answers this question (the server-rendered confirm step). */
  confirm: { websiteId: number; url: string } | null;
  /** A save that tags a website Production while stage fails questions production passes: confirm again. */
  gate: KnowledgeGate | null;
}

/** The tag that makes a website's pages answer in production. */
const PRODUCTION_TAG = "Production";
const newlyInProduction = (row: WebsiteFormRow) =>
  row.tags.includes(PRODUCTION_TAG) && !row.loaded?.tags.includes(PRODUCTION_TAG);

const list = z.preprocess(
  (value) => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string()),
);

const WebsitesForm = z.object({
  intent: text,
  websites: z
    .array(
      z.object({
        id: text,
        url: text,
        site_map: text,
        tags: list,
        skip_patterns: text,
        allowed_patterns: text,
        loaded: text,
      }),
    )
    .default([]),
});

const Loaded = z.object({
  url: z.string(),
  site_map: z.string(),
  tags: z.array(z.string()),
  skip_patterns: z.string(),
  allowed_patterns: z.string(),
  enabled: z.boolean(),
});

const parseLoaded = (raw: string): WebsiteFormRow["loaded"] => parseLoadedField(Loaded, raw);

export function readWebsitesForm(formData: FormData): { intent: WebsitesIntent; rows: WebsiteFormRow[] } | null {
  const submission = parseWithZod(formData, { schema: WebsitesForm, disableAutoCoercion: true });
  if (submission.status !== "success") return null;
  const rows = submission.value.websites.map(({ loaded, ...values }) => ({ ...values, loaded: parseLoaded(loaded) }));
  return { intent: websitesIntent(submission.value.intent), rows };
}

/** The spec's required check (url and site_map) on the rows to send, then the API rows to send. */
export function planWebsitesSave(rows: WebsiteFormRow[], appId: number): SavePlan<WebsiteInput> {
  const { errors } = checkRowsToSave(rows, websiteRowNeedsSave, WEBSITE_REQUIRED_FIELDS);
  const payload: WebsiteInput[] = [];
  const sentFrom: number[] = [];
  rows.forEach((row, index) => {
    if (!websiteRowNeedsSave(row)) return;
    const id = savedIdOf(row.id);
    if (!isNewWebsiteRow(row) && (id === null || !row.loaded))
      addError(errors, index, ROW_ERROR, UNREADABLE_ROW_MESSAGE);
    if (row.site_map && !isScanMode(row.site_map))
      addError(errors, index, "site_map", "Choose one of the offered scan modes");
    if (errors[index] || !isScanMode(row.site_map)) return;
    payload.push({
      ...(id ? { id } : {}),
      app_id: appId,
      url: row.url.trim(),
      site_map: row.site_map,
      enabled: row.loaded?.enabled ?? true,
      tags: [...new Set(row.tags.map((tag) => tag.trim()).filter(Boolean))],
      skip_patterns: parsePatterns(row.skip_patterns),
      allowed_patterns: parsePatterns(row.allowed_patterns),
    });
    sentFrom.push(index);
  });
  return savePlan(payload, sentFrom, errors);
}

/** API field names (after `websites.<n>.`) ⇒ the table's cells; anything else belongs to the row. */
const WEBSITE_API_ROWS: ApiRows = {
  list: "websites",
  cellOf: cellsByField(["url", "site_map", "tags", "skip_patterns", "allowed_patterns"], { urls: "url" }),
};

const reply = (
  data: Omit<WebsitesActionData, "confirm" | "gate"> & Partial<Pick<WebsitesActionData, "confirm" | "gate">>,
  init: ReplyInit = 200,
) => json<WebsitesActionData>({ confirm: null, gate: null, ...data }, init);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Back to the page as it was (same page, size and search), with a toast. */
function backTo(request: Request) {
  const { pathname, search } = new URL(request.url);
  return `${pathname}${search}`;
}

async function runMenuAction(api: ApiClient, appId: number, action: MenuAction, websiteId: number, request: Request) {
  const spec = MENU_ACTIONS[action];
  try {
    if (spec.status === null) {
      // The API's call names the website alone: it must be this client's, as the status changes' calls are.
      await findWebsite(api, appId, websiteId);
      await knowledgeApi.refreshSitemap(api, websiteId);
      return redirectWithToast(backTo(request), { type: "success", description: "Sitemap refresh started" });
    }
    const result = await knowledgeApi.updateWebsiteUrls(api, appId, websiteId, {
      status: spec.status,
      ...(spec.force ? { force_index: true } : {}),
    });
    const done = `${spec.label}: ${plural(result.updated, "URL")} set to ${spec.status}`;
    if (!result.in_progress) return redirectWithToast(backTo(request), { type: "success", description: done });
    // Those being processed change once they have finished: the request did not reach them.
    return redirectWithToast(backTo(request), {
      type: result.updated ? "info" : "error",
      description: `${done}. ${plural(result.in_progress, "URL")} being processed now ${result.in_progress === 1 ? "was" : "were"} left as ${result.in_progress === 1 ? "it is" : "they are"}: ask again once ${result.in_progress === 1 ? "it has" : "they have"} finished.`,
    });
  } catch (error) {
    // The client calls throw 403/404 as responses for error boundaries; here they are a failed action.
    const refused = shownInPlace(error) || (error instanceof Response && error.status < 500);
    if (!refused) throw error;
    const reason = error instanceof ApiError ? error.message : error.statusText;
    const description =
      spec.status === null ? `Failed to refresh the sitemap: ${reason}` : `Failed to update URLs to ${spec.status}`;
    return redirectWithToast(backTo(request), { type: "error", description });
  }
}

/**
 * The whole action of the Websites page (the caller has checked the user may configure the client):
 * add or discard a row without JavaScript, a row-menu action, or check and save the rows.
 */
export async function handleWebsitesAction({
  request,
  api,
  app,
}: {
  request: Request;
  api: ApiClient;
  app: ClientApp;
}) {
  const appId = app.id;
  const formData = await readForm(request);
  const form = readWebsitesForm(formData);
  if (!form) return reply({ rows: [], errors: [], formError: UNREADABLE_FORM_MESSAGE }, 400);
  const { intent, rows } = form;
  switch (intent.kind) {
    case "add-row": {
      const next = withBlankRow(rows).rows;
      return reply({ rows: next, errors: noRowErrors(next), formError: null });
    }
    case "discard-row": {
      // Only a row that was never saved can be discarded; existing ones stay.
      const next = rows.filter((row, index) => index !== intent.index || !isNewWebsiteRow(row));
      return reply({ rows: next, errors: noRowErrors(next), formError: null });
    }
    case "menu": {
      if (intent.action === "delete-urls" && !intent.confirmed) {
        const url =
          rows.find((row) => row.id === String(intent.websiteId))?.loaded?.url ?? `website ${intent.websiteId}`;
        return reply({
          rows,
          errors: noRowErrors(rows),
          formError: null,
          confirm: { websiteId: intent.websiteId, url },
        });
      }
      return runMenuAction(api, appId, intent.action, intent.websiteId, request);
    }
    case "unknown":
      return reply({ rows, errors: noRowErrors(rows), formError: "Unknown action" }, 400);
    case "save":
      break;
  }
  const plan = planWebsitesSave(rows, appId);
  if (!plan.ok) return reply({ rows, errors: plan.errors, formError: FIX_ROWS_MESSAGE }, 400);
  if (plan.payload.length === 0)
    return redirectWithToast(backTo(request), { type: "info", description: "No changes to save" });
  if (plan.sentFrom.some((index) => newlyInProduction(rows[index]))) {
    const gate = await knowledgeGate(api, app, formData);
    if (gate) return reply({ rows, errors: noRowErrors(rows), formError: GATE_MESSAGE, gate }, 409);
  }
  try {
    const result = await knowledgeApi.saveWebsites(api, appId, plan.payload);
    return redirectWithToast(backTo(request), {
      type: "success",
      description: `${plural(result.websites.length, "website")} saved`,
    });
  } catch (error) {
    // A website deleted meanwhile (404) is said on the form, keeping what was typed.
    if (error instanceof Response && error.status === 404) {
      return reply({ rows, errors: noRowErrors(rows), formError: `${error.statusText}; reload the page` }, 404);
    }
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const { errors, formError } = rowErrorsFromApi(error, WEBSITE_API_ROWS, plan.sentFrom, rows.length);
    return reply({ rows, errors, formError }, error.answerInit);
  }
}
