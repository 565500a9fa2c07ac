import { Form, Link, useLocation } from "@remix-run/react";
import type { TestQuestion } from "@contract";
import { ColumnHeader, TablePager } from "~/components/TableView";
import { HiddenParams } from "~/components/urls/params";
import { formatDateTime } from "~/lib/dates";
import type { TableView } from "~/lib/table-view";
import { TEST_QUESTION_COLUMNS, noQuestionsText, outcomeLabel } from "~/lib/test-questions";
import * as ui from "~/styles/ui.css";
import * as s from "./testing.css";
import { WebAddress } from "~/components/BreakableText";

/** The search box: a GET form, so the address holds it and it works without JavaScript. */
export function QuestionSearch({ search }: { search: string }) {
  return (
    <Form method="get" role="search" className={ui.toolbar} preventScrollReset>
      <HiddenParams omit={["search", "page", "edit"]} />
      <label htmlFor="test-question-search" className={ui.visuallyHidden}>
        Search questions
      </label>
      {/* Keyed by the search, so a page arrived at by a link (Clear the search) shows its own. */}
      <input
        key={search}
        id="test-question-search"
        type="search"
        name="search"
        defaultValue={search}
        placeholder="Search questions"
        maxLength={200}
        className={ui.input}
      />
      <button type="submit" className={ui.button.secondary}>
        Search
      </button>
    </Form>
  );
}

/** One page of the agent's test questions, sortable, each with Edit and Delete for who may change them. */
export function QuestionsTable({
  questions,
  paging,
  search,
  canConfigure,
}: {
  questions: TestQuestion[];
  paging: { view: TableView; page: number; totalPages: number; total: number };
  /** The search the rows match ("" for none). */
  search: string;
  canConfigure: boolean;
}) {
  const location = useLocation();
  /** The address asking for `name` (edit, delete) about one question, the other one dropped. */
  const askingHref = (name: "edit" | "delete", id: number) => {
    const next = new URLSearchParams(location.search);
    next.delete(name === "edit" ? "delete" : "edit");
    next.set(name, String(id));
    return `?${next}`;
  };
  const editHref = (id: number) => askingHref("edit", id);
  const deleteHref = (id: number) => askingHref("delete", id);
  const withoutSearch = new URLSearchParams(location.search);
  for (const name of ["search", "page", "edit", "delete"]) withoutSearch.delete(name);
  return (
    <>
      <div className={ui.tableScroll}>
        <table aria-label="Test questions">
          <thead>
            <tr>
              {TEST_QUESTION_COLUMNS.map((column) => (
                <ColumnHeader key={column.label} column={column} view={paging.view} />
              ))}
              {canConfigure ? (
                <th scope="col">
                  <span className={ui.visuallyHidden}>Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {questions.length ? (
              questions.map((question) => (
                <tr key={question.id}>
                  <td className={s.cellText}>{question.question}</td>
                  <td className={s.addressText}>
                    <WebAddress address={question.expect_source ?? ""} />
                  </td>
                  <td className={s.cellText}>{question.expect_text ?? ""}</td>
                  <td>{outcomeLabel(question.expect_outcome)}</td>
                  <td className={ui.dateTimeCell}>{formatDateTime(question.updated_at)}</td>
                  {canConfigure ? (
                    <td>
                      <div className={s.rowActions}>
                        <Link
                          to={editHref(question.id)}
                          className={ui.button.secondary}
                          preventScrollReset
                          aria-label={`Edit “${question.question}”`}
                        >
                          Edit
                        </Link>
                        <Link
                          to={deleteHref(question.id)}
                          className={ui.button.secondary}
                          preventScrollReset
                          aria-label={`Delete “${question.question}”`}
                        >
                          Delete
                        </Link>
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={TEST_QUESTION_COLUMNS.length + (canConfigure ? 1 : 0)} className={ui.muted}>
                  {noQuestionsText(search)}
                  {search ? (
                    <>
                      {" "}
                      <Link to={`?${withoutSearch}`} preventScrollReset>
                        Clear the search
                      </Link>
                    </>
                  ) : null}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <TablePager
        view={paging.view}
        page={paging.page}
        totalPages={paging.totalPages}
        total={paging.total}
        closes={["delete"]}
      />
    </>
  );
}

/**
 * CSV out (this view's search) and in (added to the agent's questions, all rows or none), in a
 * card of their own below the question form.
 */
export function CsvTools({
  exportHref,
  canConfigure,
  importErrors,
}: {
  exportHref: string;
  canConfigure: boolean;
  importErrors: string[];
}) {
  return (
    <div className={`${ui.card} ${s.card} ${s.csvTools}`} role="group" aria-label="Import and export">
      <a href={exportHref} download className={ui.button.secondary}>
        Export CSV
      </a>
      {canConfigure ? (
        <Form
          method="post"
          encType="multipart/form-data"
          className={s.csvImport}
          aria-label="Import test questions"
          preventScrollReset
        >
          <label htmlFor="test-questions-file" className={ui.label}>
            CSV file (question, expect_source, expect_text, expect_outcome)
          </label>
          <div className={s.csvPick}>
            <input
              id="test-questions-file"
              type="file"
              name="file"
              accept=".csv,text/csv"
              className={s.fileInput}
              aria-describedby={importErrors.length ? "test-questions-import-errors" : undefined}
            />
            <button type="submit" name="intent" value="import" className={ui.button.secondary}>
              Import CSV
            </button>
          </div>
        </Form>
      ) : null}
      {importErrors.length ? (
        <ul id="test-questions-import-errors" role="alert" className={`${ui.fieldError} ${s.csvErrors}`}>
          {importErrors.slice(0, 20).map((line) => (
            <li key={line}>{line}</li>
          ))}
          {importErrors.length > 20 ? <li>… and {importErrors.length - 20} more</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
