import type { ComponentProps, ReactNode } from "react";
import { formatDateTimeUtc } from "~/lib/dates";
import * as ui from "~/styles/ui.css";
import { SelectCell, TextCell, TextValueCell } from "~/components/editable-table/cells";
import * as s from "~/components/editable-table/EditableTable.css";

interface PersonCellsProps {
  /** The row's index in the posted form (`users[<index>].…`). */
  index: number;
  /** The row's number as people count it, for the inputs' accessible names. */
  rowNumber: number;
  /** A cell's element id from its field name. */
  cellId: (field: string) => string;
  row: { id: string; email: string; name: string };
  /** The values the loader gave, posted back as hidden `loaded.*` fields (null for a new row). */
  loaded: Record<string, string> | null;
  /** Inputs (a new, opened, changed or flagged row) or text. */
  asInputs: boolean;
  emailErrors?: string[];
  nameErrors?: string[];
  changed: Set<string>;
  /** Shown as inputs but not editable (a client admin may not rename an existing person). */
  readOnly?: boolean;
  /** More hidden fields the row carries (a new person's user_type). */
  children?: ReactNode;
  onChange: (patch: { email?: string; name?: string }) => void;
}

/**
 * A Users or Access Control row's Email and Name cells, as inputs or as text, with the hidden
 * fields every row posts: its id, whether it is opened for editing, and what was loaded.
 */
export function PersonCells({
  index,
  rowNumber,
  cellId,
  row,
  loaded,
  asInputs,
  emailErrors,
  nameErrors,
  changed,
  readOnly,
  children,
  onChange,
}: PersonCellsProps) {
  const name = (field: string) => `users[${index}].${field}`;
  const carried = (
    <>
      <input type="hidden" name={name("id")} value={row.id} />
      {asInputs ? <input type="hidden" name={name("editing")} value="true" /> : null}
      {Object.entries(loaded ?? {}).map(([field, value]) => (
        <input key={field} type="hidden" name={name(`loaded.${field}`)} value={value} />
      ))}
      {children}
    </>
  );
  if (!asInputs) {
    return (
      <>
        <TextValueCell id={cellId("email")} name={name("email")} value={row.email} errors={emailErrors}>
          {carried}
        </TextValueCell>
        <TextValueCell id={cellId("name")} name={name("name")} value={row.name} errors={nameErrors} />
      </>
    );
  }
  return (
    <>
      <TextCell
        id={cellId("email")}
        name={name("email")}
        type="email"
        label={`Email, row ${rowNumber}`}
        value={row.email}
        errors={emailErrors}
        changed={changed.has("email")}
        readOnly={readOnly}
        onChange={(email) => onChange({ email })}
      >
        {carried}
      </TextCell>
      <TextCell
        id={cellId("name")}
        name={name("name")}
        label={`Name, row ${rowNumber}`}
        value={row.name}
        errors={nameErrors}
        changed={changed.has("name")}
        readOnly={readOnly}
        onChange={(value) => onChange({ name: value })}
      />
    </>
  );
}

/** A row's role: a select while the row shows inputs, else its label as text (the value still posted). */
export function RoleCell({ asInputs, ...select }: ComponentProps<typeof SelectCell> & { asInputs: boolean }) {
  if (asInputs) return <SelectCell {...select} />;
  return (
    <TextValueCell
      id={select.id}
      name={select.name}
      value={select.value}
      text={select.readOnlyText}
      errors={select.errors}
    />
  );
}

/** When the row was saved (created, onboarded); a new row is not saved yet. */
export function SavedAtCell({ isNew, at }: { isNew: boolean; at: string | undefined }) {
  return (
    <td className={s.dateCell}>
      {isNew ? <span className={ui.muted}>Not saved yet</span> : formatDateTimeUtc(at ?? "")}
    </td>
  );
}
