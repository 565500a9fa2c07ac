// Plain values only: this module reaches the browser, where the contract's schemas must not.
import type { TestGate, TestQuestion, TestQuestionInput } from "@contract";
import { CHAT_OUTCOMES, type ChatOutcome } from "@contract/values/chat";
import { OUTCOME_LABELS, TEST_QUESTIONS_IMPORT_MAX } from "@contract/values/testing";
import { readCsv, toCsv, unguardedCsvText, type CsvRead, type UnclosedQuote } from "./csv";

/** How each outcome a question may expect reads on the screen (History names them the same way). */
export { OUTCOME_LABELS };
export const outcomeLabel = (outcome: string | null) =>
  outcome ? (OUTCOME_LABELS[outcome as ChatOutcome] ?? outcome) : "";

export const TEST_QUESTION_COLUMNS = [
  { label: "Question", sort: "question" },
  { label: "Expected source" },
  { label: "Expected text" },
  { label: "Expected outcome", sort: "expect_outcome" },
  { label: "Updated (UTC)", sort: "updated_at" },
] as const;
export const TEST_QUESTION_SORT_KEYS = TEST_QUESTION_COLUMNS.flatMap((column) =>
  "sort" in column ? [column.sort] : [],
);

/** The fields of the add/edit form, as typed (what comes back with a refusal). */
export interface QuestionFormValues {
  question: string;
  expect_source: string;
  expect_text: string;
  expect_outcome: string;
}
export const EMPTY_QUESTION: QuestionFormValues = {
  question: "",
  expect_source: "",
  expect_text: "",
  expect_outcome: "",
};

export const QUESTION_FIELDS = Object.keys(EMPTY_QUESTION) as (keyof QuestionFormValues)[];

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

/** The form's fields as posted (`nameOf` gives each field's name in the form). */
export function questionFormValues(
  form: FormData,
  nameOf: (field: keyof QuestionFormValues) => string = (field) => field,
): QuestionFormValues {
  const value = (field: keyof QuestionFormValues) => text(form.get(nameOf(field)));
  return {
    question: value("question"),
    expect_source: value("expect_source"),
    expect_text: value("expect_text"),
    expect_outcome: value("expect_outcome"),
  };
}

/** The hidden field carrying a field's value as the edit form loaded it (as the rows tables post theirs). */
export const loadedFieldName = (field: keyof QuestionFormValues) => `loaded.${field}`;

/** The values the edit form was loaded with, or null from a form that posts none. */
export const loadedQuestionValues = (form: FormData): QuestionFormValues | null =>
  form.get(loadedFieldName("question")) === null ? null : questionFormValues(form, loadedFieldName);

export const formValuesOf = (question: TestQuestion): QuestionFormValues => ({
  question: question.question,
  expect_source: question.expect_source ?? "",
  expect_text: question.expect_text ?? "",
  expect_outcome: question.expect_outcome ?? "",
});

/** What the API takes from the form: an empty field expects nothing, an unknown outcome is the API's to refuse. */
export const questionInputOf = (values: QuestionFormValues, triggerPoint: string): TestQuestionInput => ({
  trigger_point: triggerPoint,
  question: values.question,
  expect_source: values.expect_source || null,
  expect_text: values.expect_text || null,
  expect_outcome: (values.expect_outcome || null) as ChatOutcome | null,
});

/** What the questions table says without rows: none kept yet, or none matching the search. */
export const noQuestionsText = (search: string) =>
  search ? `No test questions match “${search}”.` : "No test questions yet.";

// ── CSV ──────────────────────────────────────────────────────────────────────────────────────────

/** The file's columns, in this order on export; on import by their header, in any order. */
export const CSV_HEADER = ["question", "expect_source", "expect_text", "expect_outcome"] as const;

export function questionsCsv(questions: readonly TestQuestion[]) {
  return toCsv([
    CSV_HEADER,
    ...questions.map((q) => [q.question, q.expect_source ?? "", q.expect_text ?? "", q.expect_outcome ?? ""]),
  ]);
}

export type CsvImport =
  | {
      ok: true;
      questions: Omit<TestQuestionInput, "trigger_point">[];
      /** Each question's row in the file, as a spreadsheet numbers it: the header is row 1, blank rows count. */
      rows: number[];
      /** The header's columns the import does not read, as the file names them (a "Notes" column, a misspelt one). */
      unread: string[];
    }
  | { ok: false; message: string };

const outcomeFrom = (value: string): ChatOutcome | string | null => {
  const wanted = value.trim().toLowerCase();
  if (!wanted) return null;
  const byLabel = CHAT_OUTCOMES.find((outcome) => OUTCOME_LABELS[outcome].toLowerCase() === wanted);
  return byLabel ?? wanted;
};

/**
 * The columns as the table's headings name them ("Expected source"): a file written from what the
 * screen shows is read as the export's own.
 */
const COLUMN_LABELS: Record<string, (typeof CSV_HEADER)[number]> = {
  expected_source: "expect_source",
  expected_text: "expect_text",
  expected_outcome: "expect_outcome",
};

/** A header cell as the import matches it: any case, spaces as underscores, the screen's headings as the columns they head. */
const columnName = (cell: string) => {
  const name = cell.trim().toLowerCase().replace(/\s+/g, "_");
  return COLUMN_LABELS[name] ?? name;
};

/**
 * The separators a spreadsheet may save a CSV with: commas, semicolons (Excel where a comma is the
 * decimal mark: much of Europe and Latin America) and tabs (its "Unicode Text").
 */
const DELIMITERS = [",", ";", "\t"] as const;

/** The file's records with their rows' numbers, blank rows left out (they keep their place in the numbering). */
function filledRows(rows: string[][]) {
  return rows
    .map((cells, index) => ({ cells, number: index + 1 }))
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ""));
}

/**
 * Excel's first line naming the file's separator (`sep=;`), which Excel itself reads and hides: the
 * rows are numbered as it shows them, from the header.
 */
const SEPARATOR_LINE = /^\uFEFF?sep=([,;\t])[^\S\r\n]*(?:\r\n|\r|\n)/i;

/**
 * The file read with the separator its header is written with: the one a `sep=` first line names,
 * else the first whose header names a `question` column, commas when none does (the refusal then
 * quotes the header as read).
 */
function readWithItsDelimiter(csv: string) {
  const named = SEPARATOR_LINE.exec(csv);
  if (named) return readCsv(csv.slice(named[0].length), named[1] as (typeof DELIMITERS)[number]);
  let first: CsvRead | null = null;
  for (const delimiter of DELIMITERS) {
    const read = readCsv(csv, delimiter);
    const [header] = filledRows(read.rows);
    if (header?.cells.some((cell) => columnName(cell) === "question")) return read;
    first ??= read;
  }
  return first!;
}

/**
 * A quote that never closes, named as a refused row is (`Row 2, expect_text: …`): by the column's
 * header when the quote opened below it, else by the column's number.
 */
function unclosedQuoteMessage({ row, column }: UnclosedQuote, header: string[] | null) {
  const name = (header && header[column - 1]) || `column ${column}`;
  return `Row ${row}, ${name}: The quote that opens this field is never closed, so the rest of the file would be read into it. Close the quote, or remove it.`;
}

/** A header's text as the file has it, for a message (cut where it runs long). */
const quotedHeader = (cells: string[]) => {
  const text = cells.map((cell) => cell.trim()).join(", ");
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};

/**
 * A CSV of test questions: a header naming at least `question` (and any of the expectations),
 * then a row per question; blank rows are skipped. The columns may be named as exported or as the
 * table's headings name them, and separated by commas, semicolons or tabs (or as Excel's `sep=` first
 * line says); a column named twice is
 * refused (which of the two would count is anyone's guess). Outcomes may be written as exported or
 * as the screen shows them. Row checks beyond the shape are the API's.
 */
export function readQuestionsCsv(csv: string): CsvImport {
  const read = readWithItsDelimiter(csv);
  // Blank rows are skipped, but keep their place in the numbering a refusal names rows by.
  const rows = filledRows(read.rows);
  const header = rows.length ? rows[0].cells.map(columnName) : null;
  if (read.unclosedQuote) return { ok: false, message: unclosedQuoteMessage(read.unclosedQuote, header) };
  if (!header) return { ok: false, message: "The file is empty: it needs a header row and a row per question." };
  const at = Object.fromEntries(CSV_HEADER.map((name) => [name, header.indexOf(name)])) as Record<
    (typeof CSV_HEADER)[number],
    number
  >;
  if (at.question < 0)
    return {
      ok: false,
      message: `The first row must name the columns: ${CSV_HEADER.join(", ")}. It reads “${quotedHeader(rows[0].cells)}”.`,
    };
  const twice = CSV_HEADER.find((name) => header.indexOf(name) !== header.lastIndexOf(name));
  if (twice)
    return {
      ok: false,
      message: `The first row names the column ${twice} twice (columns ${header.indexOf(twice) + 1} and ${header.lastIndexOf(twice) + 1}): keep one.`,
    };
  const unread = rows[0].cells
    .filter((cell, index) => cell.trim() && !(CSV_HEADER as readonly string[]).includes(header[index]))
    .map((cell) => cell.trim());
  const body = rows.slice(1);
  if (!body.length) return { ok: false, message: "The file has a header but no questions." };
  if (body.length > TEST_QUESTIONS_IMPORT_MAX)
    return {
      ok: false,
      message: `Import at most ${TEST_QUESTIONS_IMPORT_MAX} questions at once; this file has ${body.length}.`,
    };
  // An export guards formula-like text with an apostrophe (csvField); reading it back drops it.
  const cell = (row: string[], index: number) => (index < 0 ? "" : unguardedCsvText((row[index] ?? "").trim()));
  return {
    ok: true,
    questions: body.map(({ cells }) => ({
      question: cell(cells, at.question),
      expect_source: cell(cells, at.expect_source) || null,
      expect_text: cell(cells, at.expect_text) || null,
      expect_outcome: outcomeFrom(cell(cells, at.expect_outcome)) as ChatOutcome | null,
    })),
    rows: body.map(({ number }) => number),
    unread,
  };
}

/** What an import says of the header's columns it did not read ("Notes"), or nothing when it read them all. */
export function unreadColumnsText(unread: readonly string[]) {
  if (!unread.length) return null;
  const names = unread.slice(0, 5).map((name) => `“${name.length > 40 ? `${name.slice(0, 39)}…` : name}”`);
  const more = unread.length > 5 ? ` and ${unread.length - 5} more` : "";
  return `${unread.length === 1 ? "the column" : "the columns"} ${names.join(", ")}${more} ${unread.length === 1 ? "was" : "were"} not read (the import reads ${CSV_HEADER.join(", ")})`;
}

/**
 * The API's refusal of an import (`questions.{index}.{field}`) as lines a person can act on: the
 * question's row in the file (`rows`, as readQuestionsCsv numbered them) and the column.
 */
export function importErrorLines(fieldErrors: Record<string, string[]>, rows: readonly number[]): string[] {
  return Object.entries(fieldErrors).map(([path, messages]) => {
    const match = /^questions\.(\d+)\.(\w+)$/.exec(path);
    const row = match ? rows[Number(match[1])] : undefined;
    return match && row !== undefined ? `Row ${row}, ${match[2]}: ${messages.join(" ")}` : messages.join(" ");
  });
}

// ── The production gate ──────────────────────────────────────────────────────────────────────────

/**
 * The stage run whose failures an operator must accept before a change reaches production: the
 * last finished stage run when it fails questions production passes, else null. A confirmation
 * names this run, so a newer run with other failures asks again.
 */
export const gateRunToAccept = (gate: TestGate | null) =>
  gate?.stage && gate.stage_fails_prod_passes.length ? gate.stage.id : null;
