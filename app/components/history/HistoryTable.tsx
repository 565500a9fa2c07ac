import { Form, Link, useNavigation } from "@remix-run/react";
import { useRef } from "react";
import type { ChangeLine } from "@contract";
import { CHANGE_KIND_LABELS, isRestorableKind, LATER_CHANGES_CAP, type ChangeKind } from "@contract/values/history";
import { formatDateTime, formatDateTimeUtc } from "~/lib/dates";
import { laterChangesOn, type LaterChanges } from "~/lib/history";
import * as ui from "~/styles/ui.css";
import { EmailAddress } from "~/components/BreakableText";
import { useFocusOnSwap } from "~/components/useFocusOnSwap";
import { ChangeDiff } from "./ChangeDiff";
import * as s from "./history.css";

export interface ShownChange extends LaterChanges {
  id: number;
  at: string;
  user_email: string;
  kind: ChangeKind;
  summary: string;
  changes: ChangeLine[];
}

/** The address of the question asked before a revert or restore that undoes later changes too. */
export type ConfirmAddress = (intent: "restore" | "revert", id: number) => string;

export const NO_CHANGES_TEXT = "No changes recorded here yet.";

/**
 * The changes, latest first: when, who, what kind, and the summary that opens onto what it did (a
 * `<details>`, so it opens without JavaScript). Restorable kinds get two plain form posts back to
 * this page for those who may change the client: put back the state the change led to, or the one
 * before it.
 */
export function HistoryTable({
  changes,
  canRestore,
  confirmTo,
}: {
  changes: ShownChange[];
  canRestore: boolean;
  confirmTo: ConfirmAddress;
}) {
  // The button last used: once its revert is done it becomes a link that asks first, and keeps focus.
  const navigation = useNavigation();
  const used = useRef<string | null>(null);
  const sent = navigation.formData;
  if (sent?.get("id")) used.current = restoreControlId(String(sent.get("intent")), Number(sent.get("id")));
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
                <td className={ui.dateTimeCell}>
                  <time dateTime={change.at}>{formatDateTime(change.at)}</time>
                </td>
                <td className={s.who}>
                  <EmailAddress email={change.user_email} />
                </td>
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
                          change={change}
                          intent="revert"
                          label="Revert this change"
                          confirmTo={confirmTo}
                          used={used.current}
                        />
                        <RestoreForm
                          change={change}
                          intent="restore"
                          label="Restore this state"
                          confirmTo={confirmTo}
                          used={used.current}
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

/** A revert or restore control's id, the same whether it is a button or the link that asks first. */
const restoreControlId = (intent: string, id: number) => `${intent}-change-${id}`;

/**
 * One of a change's two buttons; its hidden words name the change, so a screen reader tells the
 * rows' buttons apart. When it would undo later changes too (a restore writes the whole thing back,
 * a revert what its change wrote) the button asks first (a link to the page's question), saying so.
 */
function RestoreForm({
  change,
  intent,
  label,
  confirmTo,
  used,
}: {
  change: ShownChange;
  intent: "restore" | "revert";
  label: string;
  confirmTo: ConfirmAddress;
  /** The id of the control last used on this page, if any. */
  used: string | null;
}) {
  const id = restoreControlId(intent, change.id);
  const later = laterChangesOn(intent, change);
  const asksFirst = later > 0;
  useFocusOnSwap(id, asksFirst, used === id);
  const words = (
    <>
      {label}
      {/* Two changes can share a summary ("1 rule added"): the time tells their buttons apart. */}
      <span className={ui.visuallyHidden}>
        {" "}
        ({change.summary}, {formatDateTimeUtc(change.at)})
      </span>
    </>
  );
  if (asksFirst) {
    return (
      <Link
        id={id}
        to={confirmTo(intent, change.id)}
        className={`${ui.button.secondary} ${s.restoreButton}`}
        preventScrollReset
      >
        {words}
      </Link>
    );
  }
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={change.id} />
      <input type="hidden" name="later_changes" value={later} />
      <button type="submit" id={id} className={`${ui.button.secondary} ${s.restoreButton}`}>
        {words}
      </button>
    </Form>
  );
}

/**
 * The question before a revert or restore that undoes later changes too: a restore, every later
 * change to the same thing; a revert of controls, only the later changes to the controls its change
 * touched (it writes back those alone); a revert of any other kind, every later change, as it
 * writes the whole thing back. A production appearance is written into stage: its later changes
 * are stage's, and the question says so.
 */
export function laterChangesQuestion(intent: "restore" | "revert", change: ShownChange) {
  const n = laterChangesOn(intent, change);
  const since = change.restores_into_stage
    ? "made since to stage's appearance"
    : intent === "revert" && change.kind === "controls"
      ? "made since to the same controls"
      : "made to it since";
  const later =
    n === 1 ? `the change ${since} is` : `the ${n}${n >= LATER_CHANGES_CAP ? " or more" : ""} changes ${since} are`;
  // The time tells two changes of one summary apart ("1 rule added"), as the buttons' words do.
  const which = `“${change.summary}” (${formatDateTimeUtc(change.at)})`;
  const goesBack = change.restores_into_stage
    ? {
        revert: "Stage's appearance goes back to how production's was before it",
        restore: "Stage's appearance becomes what production's was after it",
      }
    : {
        revert: "What it changed goes back to how it was before it",
        restore: "What it changed goes back to how it was after it",
      };
  const what =
    intent === "revert"
      ? `Revert ${which}? ${goesBack.revert}`
      : `Restore the state ${which} led to? ${goesBack.restore}`;
  return `${what}, so ${later} undone too.`;
}
