import { APP_ROLE_LABELS } from "@contract/values/users";
import type { AppRole } from "@contract";
import { useState } from "react";
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
import * as accessStyles from "./AccessTable.css";
import * as ui from "~/styles/ui.css";
import { ACCESS_COLUMNS } from "./sorting";
import { PersonCells, RoleCell, SavedAtCell } from "./PersonCells";
import {
  ACCESS_CONFIRMED_FIELD,
  ACCESS_REQUIRED_FIELDS,
  accessRowErrors,
  accessRowNeedsSave,
  accessRowToCheck,
  blankAccessRow,
  type AccessFormRow,
} from "./rows";

export interface AccessTableProps {
  /** Sorting and paging from the address. */
  view?: TableView;
  rows: AccessFormRow[];
  errors: (FieldErrors | null)[];
  formError: string | null;
  clientName: string;
  /** The roles the caller may grant here: the Role select's options. */
  assignableRoles: AppRole[];
  /** Onboarded On (app_user.created_at) by row id (the membership's). */
  onboardedAt: Record<string, string>;
  /** The signed-in person's address: rows are memberships, whose ids are not account ids. */
  currentUserEmail: string | null;
  /** False for a client_user: the table is shown read-only. */
  canManage: boolean;
  /** Only staff may rename or re-address an existing account (it may belong to other clients). */
  canEditPeople: boolean;
  /** The rows (by id) whose removal the last save asked to have confirmed (posted without JavaScript). */
  confirming?: string[];
}

const roleLabel = (value: string) => APP_ROLE_LABELS[value as AppRole] ?? value;

export const READ_ONLY_MESSAGE = "You can view who has access, but not change it.";

const people = new Intl.ListFormat("en", { type: "conjunction" });

/** The table's form: the question above it and its confirmed removals belong to it (the `form` attribute). */
const ACCESS_FORM_ID = "access-control";

/** The question a removal asks: as Remove is ticked in the browser, and after a save without JavaScript. */
export function removalQuestion(emails: string[], clientName: string) {
  return emails.length === 1
    ? `Remove ${emails[0]}'s access to ${clientName}?`
    : `Remove the access of ${people.format(emails)} to ${clientName}?`;
}

/**
 * Without JavaScript, ticking Remove asks nothing, so the save answers with the question and saves
 * nothing: the rows stay as posted, and the button here saves them with the removals confirmed.
 */
function ConfirmRemovals({ emails, clientName }: { emails: string[]; clientName: string }) {
  return (
    <div role="group" aria-label="Remove access" className={accessStyles.removalQuestion}>
      <p role="alert" className={accessStyles.removalQuestionText}>
        {removalQuestion(emails, clientName)} Untick Remove on a row to keep that person's access.
      </p>
      <div className={ui.toolbar}>
        <button type="submit" form={ACCESS_FORM_ID} name="intent" value="save" className={ui.button.danger}>
          Remove access and save
        </button>
      </div>
    </div>
  );
}

/**
 * The Access Control table: Email, Name, Role, Onboarded On, and per person an Edit action and a
 * Remove control. Rows read as text; new, opened, changed and flagged rows show their inputs.
 * A Client (client_user) reads the table with no actions at all.
 */
export function AccessTable({
  rows,
  errors,
  formError,
  clientName,
  assignableRoles,
  onboardedAt,
  currentUserEmail,
  canManage,
  canEditPeople,
  confirming = [],
  view,
}: AccessTableProps) {
  const table = useRowsState({
    rows,
    errors,
    required: ACCESS_REQUIRED_FIELDS,
    toCheck: accessRowToCheck,
    check: accessRowErrors,
  });
  const saving = useSaving();
  const dirty = table.items.some(({ row }) => accessRowNeedsSave(row));
  const options = assignableRoles.map((value) => ({ value, label: roleLabel(value) }));
  const defaultRole: AppRole = assignableRoles.includes("client_user")
    ? "client_user"
    : (assignableRoles[0] ?? "client_user");
  // The removals the person has confirmed: in the browser as Remove was ticked, and without
  // JavaScript those the save's answer asked about (ConfirmRemovals); a row ticked afterwards is
  // asked about in its turn.
  const [confirmedHere, setConfirmedHere] = useState<string[]>([]);
  const confirmed = [...new Set([...confirming, ...confirmedHere])];
  const asked = table.items
    .filter(({ row }) => row.remove && confirming.includes(row.id))
    .map(({ row }) => row.loaded?.email ?? row.email);

  return (
    <>
      <input type="hidden" form={ACCESS_FORM_ID} name={ACCESS_CONFIRMED_FIELD} value={confirmed.join(",")} />
      {asked.length && canManage ? <ConfirmRemovals emails={asked} clientName={clientName} /> : null}
      <RowsForm
        id={ACCESS_FORM_ID}
        label="Access Control"
        columns={ACCESS_COLUMNS}
        view={view}
        lastColumn="Actions"
        dirty={dirty}
        saving={saving}
        readOnly={!canManage}
        readOnlyMessage={READ_ONLY_MESSAGE}
        formError={formError}
        rowsFlagged={table.anyErrors}
        addLabel="+ Add User"
        onAdd={() => `access-${table.addRow(blankAccessRow(defaultRole))}-email`}
        validate={table.validate}
        empty={table.items.length === 0}
      >
        {table.items.map(({ key, row }, index) => {
          const n = index + 1;
          const e = table.rowErrors[key] ?? {};
          const changed = changedFields(row, ACCESS_REQUIRED_FIELDS);
          const isNew = isNewRow(row);
          const isSelf = !isNew && row.loaded?.email === currentUserEmail;
          // Access the caller may not give (or their own) is shown, not edited: the API would refuse it.
          const roleLocked = !isNew && (isSelf || !assignableRoles.includes(row.loaded?.role as AppRole));
          const personLocked = !isNew && !canEditPeople;
          const editable = canManage && !(roleLocked && personLocked);
          const flagged = Object.keys(e).length > 0;
          const asInputs = editable && showsInputs(row, ACCESS_REQUIRED_FIELDS, flagged);
          const name = (field: string) => `users[${index}].${field}`;
          const id = (field: string) => `access-${key}-${field}`;
          const who = row.loaded?.email || `row ${n}`;
          const removable = !isNew && canManage && !roleLocked;
          return (
            <tr key={key} className={cx(flagged && s.rowFlagged, row.remove && s.rowRemoved)} data-row={n}>
              <PersonCells
                index={index}
                rowNumber={n}
                cellId={id}
                row={row}
                loaded={row.loaded}
                asInputs={asInputs}
                emailErrors={[...(e.email ?? []), ...(e[ROW_ERROR] ?? []), ...(e.user_type ?? [])]}
                nameErrors={e.name}
                changed={changed}
                readOnly={personLocked}
                onChange={(patch) => table.update(key, patch)}
              >
                {isNew ? <input type="hidden" name={name("user_type")} value={row.user_type} /> : null}
              </PersonCells>
              <RoleCell
                asInputs={asInputs}
                id={id("role")}
                name={name("role")}
                label={`Role, row ${n}`}
                value={row.role}
                errors={e.role}
                changed={changed.has("role")}
                readOnly={roleLocked}
                readOnlyText={roleLabel(row.role)}
                options={options.length ? options : [{ value: row.role, label: roleLabel(row.role) }]}
                onChange={(role) => table.update(key, { role })}
              />
              <SavedAtCell isNew={isNew} at={onboardedAt[row.id]} />
              <td className={s.actionsCell}>
                {isNew ? (
                  <DiscardRowButton index={index} rowNumber={n} onDiscard={() => table.discard(key)} />
                ) : (
                  <span className={s.rowActions}>
                    {!editable ? null : asInputs ? (
                      <CancelEditButton index={index} who={who} onCancel={() => table.update(key, reverted(row))} />
                    ) : (
                      <EditRowButton index={index} who={who} onEdit={() => table.update(key, { editing: true })} />
                    )}
                    {removable ? (
                      <label className={s.removeLabel}>
                        <input
                          type="checkbox"
                          name={name("action")}
                          value="delete"
                          checked={row.remove}
                          aria-label={`Remove, row ${n}`}
                          onChange={(event) => {
                            const remove = event.currentTarget.checked;
                            const person = row.loaded?.email ?? row.email;
                            if (
                              remove &&
                              !window.confirm(`${removalQuestion([person], clientName)} It takes effect when you save.`)
                            )
                              return;
                            if (remove) setConfirmedHere((ids) => [...ids, row.id]);
                            table.update(key, { remove });
                          }}
                        />
                        Remove
                      </label>
                    ) : null}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </RowsForm>
    </>
  );
}
