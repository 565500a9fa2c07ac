import { Link } from "@remix-run/react";
import { ConfirmStep } from "~/components/ConfirmStep";
import { INPUT_PROMPT_MESSAGES, inputPromptRows } from "@contract/values/tuning";
import { TextAreaCell, TextCell, cx } from "~/components/editable-table/cells";
import { ROW_ERROR } from "~/components/editable-table/rows";
import { DiscardRowButton, RowsForm, useSaving } from "~/components/editable-table/RowsForm";
import { useRowsState } from "~/components/editable-table/useRowsState";
import * as et from "~/components/editable-table/EditableTable.css";
import type { FieldErrors } from "~/lib/required-check";
import {
  blankPromptRow,
  changedPromptFields,
  PROMPT_COLUMNS,
  PROMPT_REQUIRED_FIELDS,
  promptRowErrors,
  promptRowNeedsSave,
  type PromptFormRow,
} from "~/lib/tuning";
import * as ui from "~/styles/ui.css";
import * as s from "./tuning.css";

export const PROMPTS_READ_ONLY_MESSAGE = "You can view this client's input prompts, but not change them.";

export interface PromptsTableProps {
  rows: PromptFormRow[];
  errors: (FieldErrors | null)[];
  formError: string | null;
  canConfigure: boolean;
  /** Where a saved prompt's Delete leads: the page asking 'Do you want to delete the prompt'. */
  deleteHref: (promptId: string) => string;
}

/**
 * The Input Prompts table: Prompt Key, Prompt (a textarea of 6 to 10 rows, 60 characters a row)
 * and Actions. One save sends every new or changed prompt of the trigger point; a saved prompt is
 * deleted on its own, after a question.
 */
export function PromptsTable({ rows, errors, formError, canConfigure, deleteHref }: PromptsTableProps) {
  const table = useRowsState({
    rows,
    errors,
    required: PROMPT_REQUIRED_FIELDS,
    toCheck: promptRowNeedsSave,
    check: promptRowErrors,
  });
  const saving = useSaving();
  const dirty = table.items.some(({ row }) => promptRowNeedsSave(row));
  const readOnly = !canConfigure;

  return (
    <div className={s.promptsTable}>
      <RowsForm
        label="Input Prompts"
        columns={PROMPT_COLUMNS}
        lastColumn="Actions"
        dirty={dirty}
        saving={saving}
        readOnly={readOnly}
        readOnlyMessage={PROMPTS_READ_ONLY_MESSAGE}
        formError={formError}
        rowsFlagged={table.anyErrors}
        addLabel="+ Add Input Prompt"
        onAdd={() => `prompts-${table.addRow(blankPromptRow())}-internal_name`}
        validate={table.validate}
        empty={table.items.length === 0}
      >
        {table.items.map(({ key, row }, index) => {
          const n = index + 1;
          const e = table.rowErrors[key] ?? {};
          const changed = changedPromptFields(row);
          const isNew = row.id === "";
          const name = (field: string) => `input_prompts[${index}].${field}`;
          const id = (field: string) => `prompts-${key}-${field}`;
          return (
            <tr key={key} className={cx(Object.keys(e).length > 0 && et.rowFlagged)} data-row={n}>
              <TextCell
                id={id("internal_name")}
                name={name("internal_name")}
                label={`Prompt Key, row ${n}`}
                value={row.internal_name}
                placeholder="e.g. welcome_message"
                errors={[...(e.internal_name ?? []), ...(e[ROW_ERROR] ?? [])]}
                changed={changed.has("internal_name")}
                readOnly={readOnly}
                onChange={(internal_name) => table.update(key, { internal_name })}
              >
                <input type="hidden" name={name("id")} value={row.id} />
                {row.loaded ? (
                  <>
                    <input type="hidden" name={name("loaded.internal_name")} value={row.loaded.internal_name} />
                    <input type="hidden" name={name("loaded.prompt_input_raw")} value={row.loaded.prompt_input_raw} />
                  </>
                ) : null}
              </TextCell>
              <TextAreaCell
                id={id("prompt_input_raw")}
                name={name("prompt_input_raw")}
                label={`Prompt, row ${n}`}
                value={row.prompt_input_raw}
                rows={inputPromptRows(row.prompt_input_raw)}
                spellCheck
                errors={e.prompt_input_raw}
                changed={changed.has("prompt_input_raw")}
                readOnly={readOnly}
                onChange={(prompt_input_raw) => table.update(key, { prompt_input_raw })}
              />
              <td className={s.actionsCell}>
                {readOnly ? null : isNew ? (
                  <DiscardRowButton index={index} rowNumber={n} onDiscard={() => table.discard(key)} />
                ) : (
                  <Link to={deleteHref(row.id)} preventScrollReset className={ui.button.link}>
                    Delete
                    <span className={ui.visuallyHidden}> prompt {row.loaded?.internal_name ?? row.internal_name}</span>
                  </Link>
                )}
              </td>
            </tr>
          );
        })}
      </RowsForm>
    </div>
  );
}

/**
 * The question before a saved prompt is deleted, rendered by the server (`?delete=<id>`), so it
 * works without JavaScript; the link back cancels.
 */
export function DeletePromptConfirm({
  prompt,
  cancelTo,
}: {
  prompt: { id: number; internal_name: string };
  cancelTo: string;
}) {
  return (
    <ConfirmStep
      label="Delete prompt"
      question={
        <>
          {INPUT_PROMPT_MESSAGES.confirmDelete} “{prompt.internal_name}”?
        </>
      }
      confirm="Delete prompt"
      intent="delete"
      cancelTo={cancelTo}
      focusKey={prompt.id}
    >
      <input type="hidden" name="prompt_id" value={prompt.id} />
    </ConfirmStep>
  );
}
