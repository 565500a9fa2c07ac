import type { ReactNode } from "react";
import { CLEANUP_METADATA_EXAMPLE, FINETUNING_TABLES, PAGE_TYPE_LABELS } from "@contract/values/tuning";
import { SelectCell, TextAreaCell, TextCell, cx, type Option } from "~/components/editable-table/cells";
import { ROW_ERROR } from "~/components/editable-table/rows";
import { AddRowButton, RowsFormShell, RowsTable, useSaving } from "~/components/editable-table/RowsForm";
import { useRowsState, type KeyedRow } from "~/components/editable-table/useRowsState";
import * as et from "~/components/editable-table/EditableTable.css";
import type { FieldErrors } from "~/lib/required-check";
import {
  addRowIntent,
  blankFinetuningRow,
  changedFinetuningFields,
  deleteRowIntent,
  finetuningRowNeedsSave,
  finetuningRowToCheck,
  isNewFinetuning,
  METADATA_PLACEHOLDER,
  nextTemporaryId,
  PAGE_TYPE_OPTIONS,
  PENALTY_PLACEHOLDER,
  siteOptionsFor,
  TABLE_ROW_NAMES,
  type FinetuningFormRow,
  type FinetuningTable,
} from "~/lib/tuning";
import { useSchemaOnFirstUse } from "~/lib/use-schema-on-first-use";
import * as s from "./tuning.css";

export const FINETUNING_READ_ONLY_MESSAGE = "You can view this client's finetuning rules, but not change them.";

/** What each table does (DESIGN.md §5: penalties weigh retrieval, clean-up rules act at indexing). */
const TABLE_HELP: Record<FinetuningTable["key"], ReactNode> = {
  url_pattern: (
    <>
      Lowers pages whose address matches the pattern when the assistant looks for answers. The pattern matches anywhere
      in the address, <code className={s.code}>*</code> standing for any characters (
      <code className={s.code}>/news/</code>, <code className={s.code}>/events/*/2019</code>); a leading{" "}
      <code className={s.code}>^</code> ties it to the start and a trailing <code className={s.code}>$</code> to the end
      (<code className={s.code}>^https://www.example.edu/$</code> is the home page alone). Penalty 0 to 1: 0 changes
      nothing, 0.5 halves a page&apos;s score, 1 leaves it out.
    </>
  ),
  page_type: (
    <>
      The same, for one kind of page: {PAGE_TYPE_LABELS.html_weightage} (web pages) or {PAGE_TYPE_LABELS.pdf_weightage}{" "}
      (uploaded files by file name, and addresses ending in .pdf). Use <code className={s.code}>*</code> to match every
      page of that kind.
    </>
  ),
  html_tags: (
    <>
      Parts of every page removed before its text is read: tag names, <code className={s.code}>.class</code> or{" "}
      <code className={s.code}>#id</code>, like <code className={s.code}>{CLEANUP_METADATA_EXAMPLE}</code>. Pages are
      indexed once for all agents, so these rules use the Default site; pages change when they are next indexed.
    </>
  ),
};

const FORM_ID = "ai-finetuning";

/**
 * The contract's check of a row (zod), fetched when the form is first used: until then a save
 * goes out unchecked and the action's own check answers, as without JavaScript.
 */
const loadRowCheck = () => import("~/lib/tuning.schema").then((module) => module.finetuningRowErrors);

export interface FinetuningTablesProps {
  rows: FinetuningFormRow[];
  errors: (FieldErrors | null)[];
  formError: string | null;
  /** The Site column's choices: Default, the client's trigger points, its agents' site codes. */
  sites: Option[];
  canConfigure: boolean;
}

function TrashIcon() {
  return (
    <svg className={s.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * The three AI Finetuning tables in one form with one save bar. Each row keeps isNew (a temporary
 * id), hasChanges and deleted; a deleted row is hidden but still posted, and the save removes it
 * from the server with the other changes.
 */
export function FinetuningTables({ rows, errors, formError, sites, canConfigure }: FinetuningTablesProps) {
  const check = useSchemaOnFirstUse(FORM_ID, loadRowCheck) ?? undefined;
  const table = useRowsState({ rows, errors, required: [], toCheck: finetuningRowToCheck, check });
  const saving = useSaving();
  const dirty = table.items.some(({ row }) => finetuningRowNeedsSave(row));
  const readOnly = !canConfigure;
  const cellId = (key: string, field: string) => `ft-${key}-${field}`;

  return (
    <RowsFormShell
      id={FORM_ID}
      label="AI Finetuning"
      dirty={dirty}
      saving={saving}
      readOnly={readOnly}
      readOnlyMessage={FINETUNING_READ_ONLY_MESSAGE}
      formError={formError}
      rowsFlagged={table.anyErrors}
      validate={table.validate}
    >
      {FINETUNING_TABLES.map((spec) => (
        <FinetuningSection
          key={spec.key}
          spec={spec}
          items={table.items}
          rowErrors={table.rowErrors}
          sites={sites}
          readOnly={readOnly}
          saving={saving}
          cellId={cellId}
          onAdd={() =>
            cellId(
              table.addRow(blankFinetuningRow(spec, nextTemporaryId(table.items.map((item) => item.row)))),
              "trigger_point",
            )
          }
          onUpdate={table.update}
          onDelete={(key, row) => (isNewFinetuning(row) ? table.discard(key) : table.update(key, { deleted: true }))}
        />
      ))}
      <DeletedRows items={table.items} />
    </RowsFormShell>
  );
}

interface SectionProps {
  spec: FinetuningTable;
  items: KeyedRow<FinetuningFormRow>[];
  rowErrors: Record<string, FieldErrors>;
  sites: Option[];
  readOnly: boolean;
  saving: boolean;
  cellId: (key: string, field: string) => string;
  onAdd: () => string;
  onUpdate: (key: string, patch: Partial<FinetuningFormRow>) => void;
  onDelete: (key: string, row: FinetuningFormRow) => void;
}

/** One table: its title and help, '+ Add', and its rows (the form's rows of its types, not deleted). */
function FinetuningSection({
  spec,
  items,
  rowErrors,
  sites,
  readOnly,
  saving,
  cellId,
  onAdd,
  onUpdate,
  onDelete,
}: SectionProps) {
  const types = spec.types as readonly string[];
  // Each row keeps its index in the whole form: its fields are posted as finetunings[<index>].
  const shown = items
    .map((item, index) => ({ ...item, index }))
    .filter(({ row }) => !row.deleted && types.includes(row.finetuning_type));
  const titleId = `ft-title-${spec.key}`;
  const rowName = TABLE_ROW_NAMES[spec.key];
  return (
    <section className={s.section} aria-labelledby={titleId}>
      <div className={s.sectionHeader}>
        <div>
          <h2 id={titleId}>{spec.title}</h2>
          <p className={s.help}>{TABLE_HELP[spec.key]}</p>
        </div>
        {readOnly ? null : (
          <AddRowButton label="+ Add" intent={addRowIntent(spec.key)} disabled={saving} onAdd={onAdd} />
        )}
      </div>
      <RowsTable
        label={spec.title}
        columns={spec.columns}
        lastColumn="Actions"
        hideLastHeader
        empty={shown.length === 0}
      >
        {shown.map(({ key, row, index }, position) => {
          const n = position + 1;
          const e = rowErrors[key] ?? {};
          const changed = changedFinetuningFields(row);
          const name = (field: string) => `finetunings[${index}].${field}`;
          const id = (field: string) => cellId(key, field);
          const label = (column: string) => `${column}, ${rowName} row ${n}`;
          const update = (patch: Partial<FinetuningFormRow>) => onUpdate(key, patch);
          return (
            <tr key={key} className={cx(Object.keys(e).length > 0 && et.rowFlagged)} data-row={n} data-row-id={row.id}>
              <SelectCell
                id={id("trigger_point")}
                name={name("trigger_point")}
                label={label("Site")}
                value={row.trigger_point}
                errors={[...(e.trigger_point ?? []), ...(e[ROW_ERROR] ?? [])]}
                changed={changed.has("trigger_point")}
                disabled={readOnly}
                readOnlyText=""
                options={siteOptionsFor(sites, row.trigger_point)}
                onChange={(trigger_point) => update({ trigger_point })}
              />
              {spec.key === "page_type" ? (
                <SelectCell
                  id={id("finetuning_type")}
                  name={name("finetuning_type")}
                  label={label("Type")}
                  value={row.finetuning_type}
                  errors={e.finetuning_type}
                  changed={changed.has("finetuning_type")}
                  disabled={readOnly}
                  readOnlyText=""
                  options={PAGE_TYPE_OPTIONS}
                  onChange={(finetuning_type) => update({ finetuning_type })}
                />
              ) : null}
              {spec.key === "html_tags" ? (
                <TextAreaCell
                  id={id("metadata")}
                  name={name("metadata")}
                  label={label("Metadata JSON")}
                  value={row.metadata}
                  rows={2}
                  monospace
                  placeholder={METADATA_PLACEHOLDER}
                  errors={e.metadata}
                  changed={changed.has("metadata")}
                  readOnly={readOnly}
                  onChange={(metadata) => update({ metadata })}
                />
              ) : (
                <>
                  <TextCell
                    id={id("pattern")}
                    name={name("pattern")}
                    label={label("Pattern")}
                    value={row.pattern}
                    placeholder="/news/"
                    errors={e.pattern}
                    changed={changed.has("pattern")}
                    readOnly={readOnly}
                    onChange={(pattern) => update({ pattern })}
                  />
                  <TextCell
                    id={id("penalty")}
                    name={name("penalty")}
                    label={label("Penalty")}
                    value={row.penalty}
                    inputMode="decimal"
                    placeholder={PENALTY_PLACEHOLDER}
                    errors={e.penalty}
                    changed={changed.has("penalty")}
                    readOnly={readOnly}
                    onChange={(penalty) => update({ penalty })}
                  />
                </>
              )}
              <td className={s.actionsCell}>
                <RowFields row={row} name={name} fixedType={spec.key !== "page_type"} />
                {readOnly ? null : (
                  <button
                    type="submit"
                    name="intent"
                    value={deleteRowIntent(index)}
                    className={s.iconButton}
                    aria-label={`Delete ${rowName} row ${n}`}
                    title="Delete"
                    disabled={saving}
                    onClick={(event) => {
                      event.preventDefault();
                      onDelete(key, row);
                    }}
                  >
                    <TrashIcon />
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </RowsTable>
    </section>
  );
}

/** The hidden fields that travel with a row: its id, what was loaded, and a type no cell edits. */
function RowFields({
  row,
  name,
  fixedType,
}: {
  row: FinetuningFormRow;
  name: (field: string) => string;
  fixedType: boolean;
}) {
  return (
    <>
      <input type="hidden" name={name("id")} value={row.id} />
      {fixedType ? <input type="hidden" name={name("finetuning_type")} value={row.finetuning_type} /> : null}
      {row.loaded ? <input type="hidden" name={name("loaded")} value={JSON.stringify(row.loaded)} /> : null}
    </>
  );
}

/** Rows marked deleted: out of sight, but posted, so the save (or the next no-JS answer) knows them. */
function DeletedRows({ items }: { items: KeyedRow<FinetuningFormRow>[] }) {
  const deleted = items.map((item, index) => ({ ...item, index })).filter(({ row }) => row.deleted);
  if (!deleted.length) return null;
  return (
    <div hidden>
      {deleted.map(({ key, row, index }) => {
        const name = (field: string) => `finetunings[${index}].${field}`;
        return (
          <div key={key}>
            <RowFields row={row} name={name} fixedType />
            <input type="hidden" name={name("trigger_point")} value={row.trigger_point} />
            <input type="hidden" name={name("pattern")} value={row.pattern} />
            <input type="hidden" name={name("penalty")} value={row.penalty} />
            <input type="hidden" name={name("metadata")} value={row.metadata} />
            <input type="hidden" name={name("deleted")} value="true" />
          </div>
        );
      })}
    </div>
  );
}
