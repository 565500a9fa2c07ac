import { useEffect, useRef } from "react";
import { useFocusOnShow } from "~/components/useFocusOnShow";
import { ConfirmStep } from "~/components/ConfirmStep";
import { DATA_MODEL_MESSAGES } from "@contract/values/personalisation";
import { SelectCell, TextAreaCell, TextCell, cx } from "~/components/editable-table/cells";
import { ROW_ERROR } from "~/components/editable-table/rows";
import { DiscardRowButton, RowsForm, useSaving } from "~/components/editable-table/RowsForm";
import { useRowsState } from "~/components/editable-table/useRowsState";
import * as et from "~/components/editable-table/EditableTable.css";
import {
  blankFieldRow,
  changedFieldValues,
  FIELD_COLUMNS,
  FIELD_REQUIRED_FIELDS,
  fieldRowErrors,
  fieldRowNeedsSave,
  GROUP_OPTIONS,
  TYPE_OPTIONS,
  type FieldFormRow,
} from "~/lib/data-model";
import type { FieldErrors } from "~/lib/required-check";
import * as ui from "~/styles/ui.css";
import * as s from "./data-model.css";

/** The table's form, which the 'Confirm Delete' buttons above it submit. */
export const FIELDS_FORM_ID = "data-model-fields";

export interface FieldsTableProps {
  /** What the model describes ("user profile"), for the form's name and the read-only note. */
  noun: string;
  rows: FieldFormRow[];
  errors: (FieldErrors | null)[];
  formError: string | null;
  canConfigure: boolean;
}

/**
 * The field table of a data model (spec section 2): Group (the spec's 16 categories), Field Name,
 * Definition, Type, and Actions. One save sends every new or changed field; a saved field is
 * deleted on its own, after 'Confirm Delete'.
 */
export function FieldsTable({ noun, rows, errors, formError, canConfigure }: FieldsTableProps) {
  const table = useRowsState({
    rows,
    errors,
    required: FIELD_REQUIRED_FIELDS,
    toCheck: fieldRowNeedsSave,
    check: fieldRowErrors,
  });
  const saving = useSaving();
  const dirty = table.items.some(({ row }) => fieldRowNeedsSave(row));
  const readOnly = !canConfigure;

  return (
    <RowsForm
      id={FIELDS_FORM_ID}
      label={`Fields of the ${noun} data model`}
      columns={FIELD_COLUMNS}
      lastColumn="Actions"
      dirty={dirty}
      saving={saving}
      readOnly={readOnly}
      readOnlyMessage={`You can view this client's ${noun} data model, but not change it.`}
      formError={formError}
      rowsFlagged={table.anyErrors}
      addLabel="+ Add Field"
      onAdd={() => `fields-${table.addRow(blankFieldRow())}-group`}
      validate={table.validate}
      empty={table.items.length === 0}
    >
      {table.items.map(({ key, row }, index) => {
        const n = index + 1;
        const e = table.rowErrors[key] ?? {};
        const changed = changedFieldValues(row);
        const name = (field: string) => `fields[${index}].${field}`;
        const id = (field: string) => `fields-${key}-${field}`;
        return (
          <tr key={key} className={cx(Object.keys(e).length > 0 && et.rowFlagged)} data-row={n}>
            <SelectCell
              id={id("group")}
              name={name("group")}
              label={`Group, row ${n}`}
              value={row.group}
              options={GROUP_OPTIONS}
              placeholder="Choose a group"
              readOnlyText={row.group}
              errors={e.group}
              changed={changed.has("group")}
              readOnly={readOnly}
              onChange={(group) => table.update(key, { group })}
            />
            <TextCell
              id={id("name")}
              name={name("name")}
              label={`Field Name, row ${n}`}
              value={row.name}
              placeholder="e.g. intended_major"
              errors={[...(e.name ?? []), ...(e[ROW_ERROR] ?? [])]}
              changed={changed.has("name")}
              readOnly={readOnly}
              onChange={(value) => table.update(key, { name: value })}
            >
              <input type="hidden" name={name("id")} value={row.id} />
              {row.loaded
                ? Object.entries(row.loaded).map(([field, value]) => (
                    <input key={field} type="hidden" name={name(`loaded.${field}`)} value={value} />
                  ))
                : null}
            </TextCell>
            <TextAreaCell
              id={id("definition")}
              name={name("definition")}
              label={`Definition, row ${n}`}
              value={row.definition}
              rows={2}
              spellCheck
              placeholder="What the value means, for people and for the assistant"
              errors={e.definition}
              changed={changed.has("definition")}
              readOnly={readOnly}
              onChange={(definition) => table.update(key, { definition })}
            />
            <SelectCell
              id={id("field_type")}
              name={name("field_type")}
              label={`Type, row ${n}`}
              value={row.field_type}
              options={TYPE_OPTIONS}
              placeholder="Choose a type"
              readOnlyText={row.field_type}
              errors={e.field_type}
              changed={changed.has("field_type")}
              readOnly={readOnly}
              onChange={(field_type) => table.update(key, { field_type })}
            />
            <td className={s.actionsCell}>
              {readOnly ? null : row.id === "" ? (
                <DiscardRowButton index={index} rowNumber={n} onDiscard={() => table.discard(key)} />
              ) : (
                // A submit of the table's form: what is typed in other rows travels with the question.
                <button
                  type="submit"
                  name="intent"
                  value={`ask-delete-${row.id}`}
                  formNoValidate
                  className={ui.button.link}
                >
                  Delete<span className={ui.visuallyHidden}> field {row.loaded?.name ?? row.name}</span>
                </button>
              )}
            </td>
          </tr>
        );
      })}
    </RowsForm>
  );
}

export const DELETED_STATUS_ID = "data-model-deleted";

/**
 * Where focus goes once 'Confirm Delete' is answered: the question it was in is gone, so a keyboard
 * or screen-reader user would start again from the top of the page. A deleted field's status line
 * takes it; a cancel gives it back to the row's Delete button.
 */
export function useFocusAfterDeleteAnswer(answer: { asking?: { id: number }; done?: string } | undefined) {
  const askedAbout = useRef<number | null>(null);
  useEffect(() => {
    if (!answer) return;
    if (answer.asking) {
      askedAbout.current = answer.asking.id;
      return;
    }
    const id = askedAbout.current;
    askedAbout.current = null;
    if (id === null) return;
    const target = answer.done
      ? document.getElementById(DELETED_STATUS_ID)
      : document.querySelector(`button[name="intent"][value="ask-delete-${id}"]`);
    if (target instanceof HTMLElement) target.focus();
  }, [answer]);
}

/**
 * 'Confirm Delete' asked from the table (its Delete buttons): both answers submit the table's form,
 * so the rows as typed come back with the answer, the deleted field gone from them.
 */
export function DeleteFieldQuestion({ field }: { field: { id: number; name: string } }) {
  const box = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useFocusOnShow(box, field.id);
  return (
    <div
      ref={box}
      tabIndex={-1}
      role="group"
      aria-label={DATA_MODEL_MESSAGES.confirmDelete}
      className={cx(s.question, s.danger)}
      onKeyDown={(event) => {
        // Escape answers the question (Cancel), as it would a dialog: it must not reach the
        // drawer, which would close the table and its unsaved rows with it.
        if (event.key !== "Escape" || event.nativeEvent.isComposing) return;
        event.stopPropagation();
        cancel.current?.click();
      }}
    >
      <p role="alert" className={s.questionText}>
        {DATA_MODEL_MESSAGES.confirmDelete}: the field “{field.name}” and its meaning go for good. What you typed in
        other rows stays, unsaved.
      </p>
      <div className={ui.toolbar}>
        <button
          ref={cancel}
          type="submit"
          form={FIELDS_FORM_ID}
          name="intent"
          value="cancel-delete"
          className={ui.button.secondary}
        >
          Cancel
        </button>
        <button
          type="submit"
          form={FIELDS_FORM_ID}
          name="intent"
          value={`delete-field-${field.id}`}
          formNoValidate
          className={ui.button.danger}
        >
          Delete field
        </button>
      </div>
    </div>
  );
}

/** 'Confirm Delete' before a saved field goes, rendered by the server (`?delete=<id>`); the link back cancels. */
export function DeleteFieldConfirm({ field, cancelTo }: { field: { id: number; name: string }; cancelTo: string }) {
  return (
    <ConfirmStep
      label={DATA_MODEL_MESSAGES.confirmDelete}
      question={
        <>
          {DATA_MODEL_MESSAGES.confirmDelete}: the field “{field.name}” and its meaning go for good.
        </>
      }
      confirm="Delete field"
      intent="delete-field"
      cancelTo={cancelTo}
      focusKey={field.id}
      className={cx(s.question, s.danger)}
      questionClassName={s.questionText}
    >
      <input type="hidden" name="record_id" value={field.id} />
    </ConfirmStep>
  );
}
