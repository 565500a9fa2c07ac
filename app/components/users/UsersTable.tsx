import { USER_TYPE_LABELS } from "@contract/values/users";
import type { UserType } from "@contract";
import type { FieldErrors } from "~/lib/required-check";
import type { TableView } from "~/lib/table-view";
import { cx } from "~/components/editable-table/cells";
import { changedFields, isNewRow, reverted, ROW_ERROR, showsInputs } from "~/components/editable-table/rows";
import {
  CancelEditButton,
  DiscardRowButton,
  EditRowButton,
  RowsForm,
  useSaving,
} from "~/components/editable-table/RowsForm";
import { useRowsState } from "~/components/editable-table/useRowsState";
import * as s from "~/components/editable-table/EditableTable.css";
import { USERS_COLUMNS } from "./sorting";
import { PersonCells, RoleCell, SavedAtCell } from "./PersonCells";
import {
  blankUserRow,
  USER_REQUIRED_FIELDS,
  userRowErrors,
  userRowNeedsSave,
  userRowToCheck,
  type UserFormRow,
} from "./rows";

export interface UsersTableProps {
  /** Sorting and paging from the address. */
  view?: TableView;
  rows: UserFormRow[];
  errors: (FieldErrors | null)[];
  formError: string | null;
  /** The user types the caller may give: the Role select's options. */
  assignableTypes: UserType[];
  /** Created At by user id. */
  createdAt: Record<string, string>;
  /** The signed-in user: nobody changes their own role. */
  currentUserId: number | null;
}

const typeLabel = (value: string) => USER_TYPE_LABELS[value as UserType] ?? value;

/**
 * The Users screen's table: Email, Name, Role, Created At; one form saving every row. Rows read
 * as text with an Edit action; new, opened, changed and flagged rows show their inputs.
 */
export function UsersTable({
  rows,
  errors,
  formError,
  assignableTypes,
  createdAt,
  currentUserId,
  view,
}: UsersTableProps) {
  const table = useRowsState({
    rows,
    errors,
    required: USER_REQUIRED_FIELDS,
    toCheck: userRowToCheck,
    check: userRowErrors,
  });
  const saving = useSaving();
  const dirty = table.items.some(({ row }) => userRowNeedsSave(row));
  const options = assignableTypes.map((value) => ({ value, label: typeLabel(value) }));

  return (
    <RowsForm
      label="Users"
      columns={USERS_COLUMNS}
      view={view}
      lastColumn="Actions"
      hideLastHeader
      dirty={dirty}
      saving={saving}
      formError={formError}
      rowsFlagged={table.anyErrors}
      addLabel="+ Add User"
      onAdd={() => `users-${table.addRow(blankUserRow())}-email`}
      validate={table.validate}
      empty={table.items.length === 0}
    >
      {table.items.map(({ key, row }, index) => {
        const n = index + 1;
        const e = table.rowErrors[key] ?? {};
        const changed = changedFields(row, USER_REQUIRED_FIELDS);
        const isNew = isNewRow(row);
        // An admin may not touch a System Admin (the API refuses it): such rows are shown, not edited.
        const locked = !isNew && !assignableTypes.includes(row.loaded?.user_type as UserType);
        const roleLocked = locked || (!isNew && row.id === String(currentUserId));
        const flagged = Object.keys(e).length > 0;
        const asInputs = !locked && showsInputs(row, USER_REQUIRED_FIELDS, flagged);
        const name = (field: string) => `users[${index}].${field}`;
        const id = (field: string) => `users-${key}-${field}`;
        const who = row.loaded?.email || `row ${n}`;
        return (
          <tr key={key} className={cx(flagged && s.rowFlagged)} data-row={n}>
            <PersonCells
              index={index}
              rowNumber={n}
              cellId={id}
              row={row}
              loaded={row.loaded}
              asInputs={asInputs}
              emailErrors={[...(e.email ?? []), ...(e[ROW_ERROR] ?? [])]}
              nameErrors={e.name}
              changed={changed}
              onChange={(patch) => table.update(key, patch)}
            />
            <RoleCell
              asInputs={asInputs}
              id={id("user_type")}
              name={name("user_type")}
              label={`Role, row ${n}`}
              value={row.user_type}
              errors={e.user_type}
              changed={changed.has("user_type")}
              readOnly={roleLocked}
              readOnlyText={typeLabel(row.user_type)}
              options={options}
              placeholder={isNew ? "Select a role" : undefined}
              onChange={(user_type) => table.update(key, { user_type })}
            />
            <SavedAtCell isNew={isNew} at={createdAt[row.id]} />
            <td className={s.actionsCell}>
              {isNew ? (
                <DiscardRowButton index={index} rowNumber={n} onDiscard={() => table.discard(key)} />
              ) : locked ? null : asInputs ? (
                <CancelEditButton index={index} who={who} onCancel={() => table.update(key, reverted(row))} />
              ) : (
                <EditRowButton index={index} who={who} onEdit={() => table.update(key, { editing: true })} />
              )}
            </td>
          </tr>
        );
      })}
    </RowsForm>
  );
}
