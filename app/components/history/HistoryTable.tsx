import { Form } from "@remix-run/react";
import type { ChangeLine } from "@contract";
import { CHANGE_KIND_LABELS, isRestorableKind, type ChangeKind } from "@contract/values/history";
import { formatDateTime } from "~/lib/dates";
import * as ui from "~/styles/ui.css";
import { ChangeDiff } from "./ChangeDiff";
import * as s from "./history.css";

export interface ShownChange {
  id: number;
  at: string;
  user_email: string;
  kind: ChangeKind;
  summary: string;
  changes: ChangeLine[];
}

export const NO_CHANGES_TEXT = "No changes recorded here yet.";

/**
 * The changes, latest first: when, who, what kind, and the summary that opens onto what it did (a
 * `<details>`, so it opens without JavaScript). Restorable kinds get two plain form posts back to
 * this page for those who may change the client: put back the state the change led to, or the one
 * before it.
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
            {canRestore ? (
              <th scope="col">
                <span className={ui.visuallyHidden}>Revert or restore</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {changes.length ? (
            changes.map((change) => (
              <tr key={change.id} data-change-id={change.id} data-kind={change.kind}>
                <td className={s.when}>
                  <time dateTime={change.at}>{formatDateTime(change.at)}</time>
                </td>
                <td className={s.who}>{change.user_email}</td>
                <td>{CHANGE_KIND_LABELS[change.kind]}</td>
                <td>
                  <details>
                    <summary className={s.summary}>{change.summary}</summary>
                    <ChangeDiff lines={change.changes} />
                  </details>
                </td>
                {canRestore ? (
                  <td className={s.restoreCell}>
                    {isRestorableKind(change.kind) ? (
                      <div className={s.restoreForms}>
                        <RestoreForm
                          id={change.id}
                          intent="revert"
                          label="Revert this change"
                          summary={change.summary}
                        />
                        <RestoreForm
                          id={change.id}
                          intent="restore"
                          label="Restore this state"
                          summary={change.summary}
                        />
                      </div>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))
          ) : (
            <tr>
              <td colSpan={canRestore ? 5 : 4}>{NO_CHANGES_TEXT}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** One of a change's two buttons; its hidden words name the change, so a screen reader tells the rows' buttons apart. */
function RestoreForm({
  id,
  intent,
  label,
  summary,
}: {
  id: number;
  intent: "restore" | "revert";
  label: string;
  summary: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={`${ui.button.secondary} ${s.restoreButton}`}>
        {label}
        <span className={ui.visuallyHidden}> ({summary})</span>
      </button>
    </Form>
  );
}
