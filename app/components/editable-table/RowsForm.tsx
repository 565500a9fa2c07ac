import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { SaveBar } from "~/components/SaveBar";
import { ColumnHeader, type TableColumn } from "~/components/TableView";
import { focusFirstProblem, useFocusFirstProblemOnAnswer } from "~/components/useFocusFirstProblem";
import type { TableView } from "~/lib/table-view";
import * as ui from "~/styles/ui.css";
import { FIX_ROWS_MESSAGE } from "./rows";
import * as s from "./EditableTable.css";

const generations = new WeakMap<object, number>();
let lastGeneration = 0;

/** A small stable hash, so a key can name "this loaded content" without carrying all of it. */
function hash(text: string) {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (h * 33) ^ text.charCodeAt(i);
  return (h >>> 0).toString(36);
}

/**
 * The React key of a table's form. Each action answer (rows re-posted with their messages) and
 * each different loader content (after a successful save) starts the table afresh from that data;
 * revalidating the same content keeps what is being typed.
 */
export function tableGeneration(posted: object | undefined, loaded: unknown) {
  if (posted) {
    let id = generations.get(posted);
    if (id === undefined) {
      id = ++lastGeneration;
      generations.set(posted, id);
    }
    return `posted-${id}`;
  }
  return `loaded-${hash(JSON.stringify(loaded))}`;
}

/**
 * `tableGeneration`, and a new one after each save of this page's table that the server answered
 * with a redirect: a saved row may be sorted onto another page, leaving this page's loaded rows as
 * they were, and the table must still start again from them rather than keep the row as "Not saved
 * yet". Counted as the render sees the save end (state set while rendering, so the table is drawn
 * once, afresh), not in an effect, which would draw it twice and lose the focus.
 */
export function useTableGeneration(posted: object | undefined, loaded: unknown) {
  const navigation = useNavigation();
  const location = useLocation();
  const savingNow =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === "save" &&
    navigation.formAction?.split("?")[0] === location.pathname;
  const [saves, setSaves] = useState({ saving: false, answered: 0 });
  let answered = saves.answered;
  if (savingNow !== saves.saving) {
    if (saves.saving && !posted) answered += 1;
    setSaves({ saving: savingNow, answered });
  }
  return `${tableGeneration(posted, loaded)}-${answered}`;
}

/** Whether this page's table form is being saved right now. */
export function useSaving() {
  const navigation = useNavigation();
  const location = useLocation();
  return (
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "save" &&
    navigation.formAction?.split("?")[0] === location.pathname
  );
}

/** Focuses the element with the id set here once the next render has put it on the page (a new row's first cell). */
function useFocusLater() {
  const [focusId, setFocusId] = useState<string | null>(null);
  useEffect(() => {
    if (!focusId) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);
  return setFocusId;
}

interface RowsFormShellProps {
  /** The form's id, for a screen that loads its checks when the form is first used. */
  id?: string;
  /** The form's accessible name. */
  label: string;
  dirty: boolean;
  saving: boolean;
  /** A user who may look but not change: Save is disabled. */
  readOnly?: boolean;
  readOnlyMessage?: string;
  /** The action's message (why the last save did not go through), if any. */
  formError: string | null;
  /** Whether any row is flagged right now; a message about rows goes once they are fixed. */
  rowsFlagged: boolean;
  /** With JavaScript, before a save goes out: flags failing rows; false stops the save. */
  validate: () => boolean;
  /** The tables (and their add buttons). */
  children: ReactNode;
}

/**
 * One form around one or more rows tables, the save bar first (so Enter saves). Every control
 * inside is a real submit button with an `intent`, so it all works without JavaScript.
 */
export function RowsFormShell({
  id,
  label,
  dirty,
  saving,
  readOnly,
  readOnlyMessage,
  formError,
  rowsFlagged,
  validate,
  children,
}: RowsFormShellProps) {
  // A message about rows lasts while rows are flagged; one about the whole form until the next answer.
  const [problem, setProblem] = useState(() => (formError ? { text: formError, aboutRows: rowsFlagged } : null));
  const shownProblem = problem && (!problem.aboutRows || rowsFlagged) ? problem.text : null;
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstProblemOnAnswer(form);
  // A refused save's rows are flagged at the next render; focus then goes to the first flagged
  // field on the page, in reading order, as it does when the server's answer flags them.
  const [refusedSaves, setRefusedSaves] = useState(0);
  useEffect(() => {
    if (refusedSaves && form.current) focusFirstProblem(form.current);
  }, [refusedSaves]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const intent = submitter instanceof HTMLButtonElement ? submitter.value : "save";
    if (intent !== "save") return;
    if (validate()) return;
    event.preventDefault();
    setProblem({ text: FIX_ROWS_MESSAGE, aboutRows: true });
    setRefusedSaves((count) => count + 1);
  }

  return (
    <Form ref={form} id={id} method="post" noValidate onSubmit={onSubmit} aria-label={label}>
      <SaveBar
        dirty={dirty}
        saving={saving}
        disabled={readOnly}
        message={readOnly ? readOnlyMessage : shownProblem}
        messageTone={readOnly ? "idle" : "error"}
      />
      {children}
    </Form>
  );
}

/**
 * '+ Add …': with JavaScript adds a row in place (`onAdd` answers the id to focus); without it
 * posts its `intent` so the action answers the rows plus a blank one.
 */
export function AddRowButton({
  label,
  intent = "add-row",
  disabled,
  onAdd,
}: {
  label: string;
  intent?: string;
  disabled?: boolean;
  onAdd: () => string;
}) {
  const focusLater = useFocusLater();
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      className={ui.button.secondary}
      disabled={disabled}
      onClick={(event) => {
        event.preventDefault();
        focusLater(onAdd());
      }}
    >
      {label}
    </button>
  );
}

interface RowsTableProps {
  /** The table's accessible name. */
  label: string;
  /** Headers; those with a `sort` key sort the rows through the address when `view` is given. */
  columns: readonly (string | TableColumn)[];
  view?: TableView;
  /** The last column's header (row controls); visually hidden when `hideLastHeader`. */
  lastColumn: string;
  hideLastHeader?: boolean;
  empty: boolean;
  /** Half the usual space between columns (a table of many columns of controls). */
  dense?: boolean;
  children: ReactNode;
}

/** The table of a rows form: a header row, then the rows (or 'Nothing To Display'). */
export function RowsTable({
  label,
  columns,
  view,
  lastColumn,
  hideLastHeader,
  empty,
  dense,
  children,
}: RowsTableProps) {
  return (
    <div className={s.tableWrap}>
      <table className={dense ? `${s.table} ${s.tableDense}` : s.table} aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => {
              const header = typeof column === "string" ? { label: column } : column;
              return <ColumnHeader key={header.label} column={header} view={view} />;
            })}
            <th scope="col">{hideLastHeader ? <span className={ui.visuallyHidden}>{lastColumn}</span> : lastColumn}</th>
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={columns.length + 1} className={s.empty}>
                Nothing To Display
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

interface RowsFormProps extends Omit<RowsFormShellProps, "children">, Omit<RowsTableProps, "children" | "label"> {
  /** The table's accessible name (and the form's). */
  label: string;
  addLabel: string;
  /** With JavaScript: add a row in place (the button otherwise posts intent=add-row); answers the id to focus. */
  onAdd: () => string;
  children: ReactNode;
}

/**
 * One form around a whole table: the save bar first (so Enter saves), '+ Add User' (no add
 * button for a read-only user), then the rows.
 */
export function RowsForm({
  label,
  columns,
  view,
  lastColumn,
  hideLastHeader,
  addLabel,
  onAdd,
  empty,
  dense,
  children,
  ...shell
}: RowsFormProps) {
  return (
    <RowsFormShell label={label} {...shell}>
      {shell.readOnly ? null : (
        <div className={ui.toolbar}>
          <AddRowButton label={addLabel} disabled={shell.saving} onAdd={onAdd} />
        </div>
      )}
      <RowsTable
        label={label}
        columns={columns}
        view={view}
        lastColumn={lastColumn}
        hideLastHeader={hideLastHeader}
        empty={empty}
        dense={dense}
      >
        {children}
      </RowsTable>
    </RowsFormShell>
  );
}

/**
 * A row's own button: in the browser it acts at once (`onClick`); without JavaScript it posts
 * `<intent>:<index>` and the action answers the rows changed accordingly (nothing is saved).
 */
function RowIntentButton({
  intent,
  index,
  label,
  accessibleName,
  onClick,
}: {
  intent: string;
  index: number;
  label: string;
  accessibleName: string;
  onClick: () => void;
}) {
  return (
    <button
      type="submit"
      name="intent"
      value={`${intent}:${index}`}
      className={ui.button.link}
      aria-label={accessibleName}
      onClick={(event) => {
        event.preventDefault();
        onClick();
      }}
    >
      {label}
    </button>
  );
}

/** Discards an unsaved new row. */
export function DiscardRowButton({
  index,
  rowNumber,
  onDiscard,
}: {
  index: number;
  rowNumber: number;
  onDiscard: () => void;
}) {
  return (
    <RowIntentButton
      intent="discard-row"
      index={index}
      label="Discard"
      accessibleName={`Discard row ${rowNumber}`}
      onClick={onDiscard}
    />
  );
}

/** Opens an existing row's values as inputs. */
export function EditRowButton({ index, who, onEdit }: { index: number; who: string; onEdit: () => void }) {
  return (
    <RowIntentButton intent="edit-row" index={index} label="Edit" accessibleName={`Edit ${who}`} onClick={onEdit} />
  );
}

/** Puts an opened row back as it was loaded. */
export function CancelEditButton({ index, who, onCancel }: { index: number; who: string; onCancel: () => void }) {
  return (
    <RowIntentButton
      intent="cancel-edit"
      index={index}
      label="Cancel"
      accessibleName={`Cancel editing ${who}`}
      onClick={onCancel}
    />
  );
}
