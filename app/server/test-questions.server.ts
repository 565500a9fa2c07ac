import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { TEST_ENVIRONMENTS, type TestQuestion } from "@contract";
import { decodeTextFile } from "@contract/text-file";
import { isRowId } from "~/lib/ids";
import { lastPageInstead, readPageParam, readSearchParam } from "~/lib/query-params";
import { readTableView } from "~/lib/table-view";
import {
  EMPTY_QUESTION,
  QUESTION_FIELDS,
  TEST_QUESTION_SORT_KEYS,
  formValuesOf,
  importErrorLines,
  loadedQuestionValues,
  questionFormValues,
  questionInputOf,
  questionsCsv,
  readQuestionsCsv,
  unreadColumnsText,
  type QuestionFormValues,
} from "~/lib/test-questions";
import { shownInPlace } from "./api/client.server";
import { testingApi } from "./api/testing-api.server";
import { controlsScreen, type ControlsScreen } from "./controls.server";
import { readForm } from "./http/form-data.server";
import { requireConfigure } from "./permissions.server";
import { rebaseOnStored, storedRows } from "./table-kit.server";
import { redirectWithToast } from "./toast.server";

/** A CSV of 500 questions at their longest is under 2 MB in UTF-8; UTF-16 takes twice the bytes. */
const IMPORT_MAX_BYTES = 4 * 1024 * 1024;
/** Runs listed on the screen (the API keeps the last 100). */
const RUNS_SHOWN = 10;

export interface TestQuestionsActionData {
  intent: "add" | "update" | "import";
  /** The question being edited when a change was refused. */
  id: number | null;
  values: QuestionFormValues;
  /**
   * An edit's values as it now counts them loaded (its hidden fields): after a conflict, what is
   * stored, so that saving again keeps what this page typed.
   */
  loaded: QuestionFormValues | null;
  fieldErrors: Record<string, string[]>;
  formError: string | null;
  importErrors: string[];
}

/** `?edit=` and `?trigger_point=` aside: the screen's address after a save. */
function addressWithout(backTo: string, ...names: string[]) {
  const url = new URL(backTo, "http://console.invalid");
  for (const name of names) url.searchParams.delete(name);
  url.searchParams.delete("index");
  return `${url.pathname}${url.search}`;
}

export async function loadTestQuestions(args: LoaderFunctionArgs) {
  const screen = await controlsScreen(args);
  const { api, app, choice } = screen;
  const params = new URL(args.request.url).searchParams;
  const view = readTableView(params, TEST_QUESTION_SORT_KEYS);
  const search = readSearchParam(params.get("search"), 200);
  const questionsAt = (page: number) =>
    testingApi.questions(api, app.id, {
      trigger_point: choice.triggerPoint,
      page,
      page_size: view.pageSize,
      search: search || undefined,
      sort: view.sort ?? undefined,
      order: view.order,
    });
  const [read, runs] = await Promise.all([questionsAt(view.page), testingApi.runs(api, app.id, choice.triggerPoint)]);
  const totalPages = Math.max(1, Math.ceil(read.total / view.pageSize));
  const lastPage = lastPageInstead(view.page, { totalCount: read.total, totalPages });
  const list = lastPage === null ? read : await questionsAt(lastPage);
  const editId = readPageParam(params.get("edit"), 0);
  const editing = list.data.find((question) => question.id === editId) ?? null;
  // `?delete=<id>` asks before a question on this page goes (it cannot be brought back).
  const deleteId = readPageParam(params.get("delete"), 0);
  const deleting = list.data.find((question) => question.id === deleteId) ?? null;
  return json({
    client: { id: app.id, name: app.client_name },
    choice,
    questions: list.data,
    paging: { view, page: Math.min(view.page, totalPages), totalPages, total: list.total },
    search,
    runs: runs.slice(0, RUNS_SHOWN),
    editing: editing ? { id: editing.id, values: formValuesOf(editing) } : null,
    deleting: deleting ? { id: deleting.id, question: deleting.question } : null,
  });
}

const refused = (
  data: Omit<TestQuestionsActionData, "importErrors" | "loaded"> & Partial<TestQuestionsActionData>,
  /** A status, or an API refusal's answer (its Retry-After passed on). */
  init: number | ResponseInit,
) =>
  json<TestQuestionsActionData>(
    { importErrors: [], loaded: null, ...data },
    typeof init === "number" ? { status: init } : init,
  );

/** The question being changed, as typed and as its form was loaded. */
interface QuestionEdit {
  id: number;
  values: QuestionFormValues;
  loaded: QuestionFormValues | null;
}

/** An API refusal of one question as the form's errors, what was typed kept. */
function questionRefused(
  error: unknown,
  intent: "add" | "update",
  edit: QuestionEdit | { id: null; values: QuestionFormValues },
) {
  if (!shownInPlace(error)) throw error;
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    if (path in EMPTY_QUESTION) fieldErrors[path] = messages;
    else formErrors.push(...messages);
  }
  if (!Object.keys(fieldErrors).length && !formErrors.length) formErrors.push(error.message);
  return refused({ intent, ...edit, fieldErrors, formError: formErrors.join(" ") || null }, error.answerInit);
}

/**
 * Where questions just added can be seen: the table in the order questions were added (where they
 * come last), at the page holding the first of the `added`. Back on the page they were added from,
 * the 11th question would stand on a page of its own, the toast naming rows the operator cannot see;
 * a search or a sort could hide them too.
 */
async function addressShowingTheNewest({ api, app, choice }: ControlsScreen, backTo: string, added = 1) {
  const url = new URL(addressWithout(backTo, "search", "sort", "order", "page"), "http://console.invalid");
  const { pageSize } = readTableView(url.searchParams, TEST_QUESTION_SORT_KEYS);
  const { total } = await testingApi.questions(api, app.id, {
    trigger_point: choice.triggerPoint,
    page: 1,
    page_size: 1,
  });
  const page = Math.floor(Math.max(0, total - added) / pageSize) + 1;
  if (page > 1) url.searchParams.set("page", String(page));
  return `${url.pathname}${url.search}`;
}

/**
 * The posted question, as stored now, when it is one of the screen's trigger point; null otherwise
 * (deleted since the page loaded, or never there). Another agent's question (or Default's, from an
 * agent's screen) answers exactly as one that does not exist, as its runs and transcripts do: a
 * screen changes only its own agent's questions.
 */
async function screenQuestionIfThere({ api, app, choice }: ControlsScreen, form: FormData) {
  const id = Number(form.get("id"));
  if (!isRowId(id)) return null;
  const question = await testingApi.question(api, app.id, id).catch((error: unknown) => {
    if (error instanceof Response && error.status === 404) return null;
    throw error;
  });
  return question?.trigger_point === choice.triggerPoint ? question : null;
}

export const DELETED_MEANWHILE =
  "This test question was deleted since you opened it. What you typed is below: add it to keep it.";

/** Texts the API trims before storing: "Lakeside " is no change from "Lakeside". */
const sameText = (_field: string, a: string, b: string) => a.trim() === b.trim();

/**
 * An edit from a form loaded before another save of the question (another tab, a colleague): the
 * fields this form did not change take what is stored, so that saving one field never writes back
 * another's old value; a field both changed, differently, is refused beside it (409), everything
 * typed kept, and saving again keeps this form's (the rows tables' rebaseOnStored, for one row).
 */
function rebasedEdit(edit: QuestionEdit, stored: TestQuestion) {
  const key = String(edit.id);
  const {
    rows: [{ id: _key, loaded, ...values }],
    errors: [fieldErrors],
  } = rebaseOnStored(
    [{ ...edit.values, id: key, loaded: edit.loaded }],
    storedRows([{ id: key, loaded: formValuesOf(stored) }]),
    QUESTION_FIELDS,
    sameText,
  );
  return { edit: { id: edit.id, values, loaded }, fieldErrors };
}

/** The import refused, its reasons beside the file field; the rest of the page as it was. */
const importRefused = (lines: string[], init: number | ResponseInit = 400) =>
  refused(
    { intent: "import", id: null, values: EMPTY_QUESTION, fieldErrors: {}, formError: null, importErrors: lines },
    init,
  );

async function importCsv(screen: ControlsScreen, form: FormData, backTo: string) {
  const file = form.get("file");
  const failed = (lines: string[]) => importRefused(lines);
  if (typeof file === "string" || file === null || file.size === 0) return failed(["Choose a CSV file to import."]);
  // Not `file.text()`: that reads every file as UTF-8, storing a Latin-1 file's accents as U+FFFD.
  const decoded = decodeTextFile(new Uint8Array(await file.arrayBuffer()), file.type);
  if (!decoded.ok) return failed([decoded.message]);
  const read = readQuestionsCsv(decoded.text);
  if (!read.ok) return failed([read.message]);
  // A column the import does not read ("Notes", "Expected answer") is said, so that nothing typed in it seems kept.
  const unread = unreadColumnsText(read.unread);
  try {
    const { created, existing } = await testingApi.importQuestions(screen.api, screen.app.id, {
      trigger_point: screen.choice.triggerPoint,
      questions: read.questions,
    });
    return redirectWithToast(await addressShowingTheNewest(screen, backTo, created), {
      type: "success",
      description:
        `${created} test ${created === 1 ? "question" : "questions"} imported` +
        (existing
          ? `; ${existing} left out as ${existing === 1 ? "a question" : "questions"} the agent already has`
          : "") +
        (unread ? `; ${unread}` : ""),
    });
  } catch (error) {
    if (!shownInPlace(error)) throw error;
    const lines = importErrorLines(error.fieldErrors, read.rows);
    // First, where the list of refused rows (shown 20 at a time) cannot hide it: it is often why they were refused.
    const unreadLine = unread ? [`${unread[0].toUpperCase()}${unread.slice(1)}.`] : [];
    // The API's status, with a limit's or an outage's Retry-After: the same file will do in a while.
    return importRefused([...unreadLine, ...(lines.length ? lines : [error.message])], error.answerInit);
  }
}

/** Add, change, delete, import and run; a client user (who may only look) gets 403. */
export async function handleTestQuestionsAction(args: ActionFunctionArgs) {
  const screen = await controlsScreen(args);
  const { api, app, choice } = screen;
  await requireConfigure(api, app.id);
  const form = await readForm(args.request, { maxBytes: IMPORT_MAX_BYTES }).catch((error: unknown) => {
    if (error instanceof Response && error.status === 413) return null;
    throw error;
  });
  // Only a file makes a post this large: the refusal goes beside the import's field, with the
  // questions, runs and forms of the page as they were, rather than a page of its own.
  if (!form)
    return importRefused(
      [`This file is larger than ${IMPORT_MAX_BYTES / (1024 * 1024)} MB: import at most 500 questions at once.`],
      413,
    );
  const intent = String(form.get("intent") ?? "");
  const backTo = addressWithout(screen.backTo, "edit", "delete");
  switch (intent) {
    case "add": {
      const values = questionFormValues(form);
      try {
        await testingApi.add(api, app.id, questionInputOf(values, choice.triggerPoint));
      } catch (error) {
        return questionRefused(error, "add", { id: null, values });
      }
      return redirectWithToast(await addressShowingTheNewest(screen, backTo), {
        type: "success",
        description: "Test question added",
      });
    }
    case "update": {
      const stored = await screenQuestionIfThere(screen, form);
      // Deleted since the form was opened (another tab, a colleague): what was typed comes back in the
      // form that adds a question, said above it, rather than a page that is not found.
      if (!stored)
        return refused(
          { intent: "add", id: null, values: questionFormValues(form), fieldErrors: {}, formError: DELETED_MEANWHILE },
          404,
        );
      const posted = { id: stored.id, values: questionFormValues(form), loaded: loadedQuestionValues(form) };
      const { edit, fieldErrors } = rebasedEdit(posted, stored);
      if (fieldErrors) return refused({ intent: "update", ...edit, fieldErrors, formError: null }, 409);
      try {
        await testingApi.change(api, app.id, edit.id, questionInputOf(edit.values, choice.triggerPoint));
      } catch (error) {
        return questionRefused(error, "update", edit);
      }
      return redirectWithToast(backTo, { type: "success", description: "Test question saved" });
    }
    case "delete": {
      const stored = await screenQuestionIfThere(screen, form);
      // Already gone (a second click, another tab): the list without it is what was asked for.
      if (!stored)
        return redirectWithToast(backTo, { type: "info", description: "This test question was already deleted" });
      await testingApi.remove(api, app.id, stored.id);
      return redirectWithToast(backTo, { type: "success", description: "Test question deleted" });
    }
    case "import":
      return importCsv(screen, form, backTo);
    case "run": {
      const environment = TEST_ENVIRONMENTS.find((name) => name === form.get("environment"));
      if (!environment) throw new Response("Run in stage or in production", { status: 400, statusText: "Bad Request" });
      // The run starts now: a run of the agent waiting for its minute is started rather than a second queued.
      let id: number;
      try {
        ({ id } = await testingApi.startRun(api, app.id, choice.triggerPoint, environment));
      } catch (error) {
        if (!shownInPlace(error)) throw error;
        return redirectWithToast(backTo, { type: "error", description: error.reason });
      }
      const runPage = new URL(
        `${new URL(backTo, "http://console.invalid").pathname}/runs/${id}`,
        "http://console.invalid",
      );
      if (choice.selectable && choice.triggerPoint) runPage.searchParams.set("trigger_point", choice.triggerPoint);
      const description = `Run started in ${environment === "prod" ? "production" : "stage"}`;
      return redirectWithToast(`${runPage.pathname}${runPage.search}`, { type: "success", description });
    }
    default:
      throw new Response("Unknown intent", { status: 400, statusText: "Unknown intent" });
  }
}

/** Every test question of the screen's trigger point (with its search) as a CSV file. */
export async function exportTestQuestions(args: LoaderFunctionArgs) {
  const { api, app, choice } = await controlsScreen(args);
  const search = readSearchParam(new URL(args.request.url).searchParams.get("search"), 200) || undefined;
  const questions = [];
  for (let page = 1; ; page += 1) {
    const list = await testingApi.questions(api, app.id, {
      trigger_point: choice.triggerPoint,
      page,
      page_size: 100,
      search,
    });
    questions.push(...list.data);
    if (questions.length >= list.total || !list.data.length) break;
  }
  const name = `test_questions_${choice.triggerPoint || "default"}.csv`.replace(/[^\w.-]+/g, "_");
  return new Response(questionsCsv(questions), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}"` },
  });
}

/** One run of the screen's trigger point; a run of another agent or client is not found. */
export async function loadTestRun(args: LoaderFunctionArgs) {
  const { api, app, choice } = await controlsScreen(args);
  const id = Number(args.params.runId);
  if (!/^\d{1,9}$/.test(args.params.runId ?? "") || !isRowId(id))
    throw new Response("This test run does not exist", { status: 404, statusText: "Not Found" });
  const run = await testingApi.run(api, app.id, id);
  // At client level the chosen trigger point (?trigger_point=) is the screen's too: its links keep it.
  if (run.trigger_point !== choice.triggerPoint)
    throw new Response("This test run does not exist", { status: 404, statusText: "Not Found" });
  return json({ client: { id: app.id, name: app.client_name }, choice, run });
}
