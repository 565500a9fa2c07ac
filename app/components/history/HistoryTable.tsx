import { Form } from "@remix-run/react";
import { CHANGE_KIND_LABELS, isRestorableKind, type ChangeKind } from "@contract/values/history";
import { formatDateTime } from "~/lib/dates";
import type { FieldChange } from "~/lib/json-diff";
import * as ui from "~/styles/ui.css";
import { ChangeDiff } from "./ChangeDiff";
import * as s from "./history.css";

export interface ShownChange {
  id: number;
  at: string;
  user_email: string;
  kind: ChangeKind;
  summary: string;
  fields: FieldChange[];
  moreFields: number;
}

export const NO_CHANGES_TEXT = "No changes recorded here yet.";

/**
 * The changes, latest first: when, who, what kind, and the summary that opens onto the diff (a
 * `<details>`, so it opens without JavaScript). Restorable kinds get a plain form post back to this
 * page for those who may change the client.
 */
export function HistoryTable({ changes, canRestore }: { changes: ShownChange[]; canRestore: boolean }) {
  return (
    <div className={ui.tableScroll} tabIndex={0}>
      <table aria-label="Configuration changes">
        <thead>
          <tr>
            <th scope="col">When (UTC)</th>
            <th scope="col">Who</th>
            <th scope="col">Kind</th>
            <th scope="col">Change</th>
            {canRestore ? <th scope="col"><span className={ui.visuallyHidden}>Restore</span></th> : null}
          </tr>
        </thead>
        <tbody>
          {changes.length ? changes.map((change) => (
            <tr key={change.id} data-change-id={change.id} data-kind={change.kind}>
              <td className={s.when}><time dateTime={change.at}>{formatDateTime(change.at)}</time></td>
              <td className={s.who}>{change.user_email}</td>
              <td>{CHANGE_KIND_LABELS[change.kind]}</td>
              <td>
                <details>
                  <summary className={s.summary}>{change.summary}</summary>
                  <ChangeDiff fields={change.fields} moreFields={change.moreFields} />
                </details>
              </td>
              {canRestore ? (
                <td className={s.restoreCell}>
                  {isRestorableKind(change.kind) ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="restore" />
                      <input type="hidden" name="id" value={change.id} />
                      <button type="submit" className={ui.button.secondary}>
                        Restore this state<span className={ui.visuallyHidden}> ({change.summary})</span>
                      </button>
                    </Form>
                  ) : null}
                </td>
              ) : null}
            </tr>
          )) : (
            <tr>
              <td colSpan={canRestore ? 5 : 4}>{NO_CHANGES_TEXT}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
