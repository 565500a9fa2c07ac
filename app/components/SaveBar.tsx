import { useRef } from "react";
import { useUnsavedChanges } from "./LeaveGuard";
import * as ui from "~/styles/ui.css";
import * as s from "./SaveBar.css";
import { FORM_ERROR_ATTRIBUTE } from "./useFocusFirstProblem";
import { useHydrated } from "./useHydrated";
import { useFocusKeptAcrossRemount } from "./useFocusKeptAcrossRemount";

export interface SaveBarProps {
  /**
   * Whether the form differs from what the loader gave (the screen tracks it). With JavaScript,
   * Save stays disabled while this is false; without JavaScript nobody can track it, so Save is
   * always enabled.
   */
  dirty: boolean;
  /** A save of this form is on its way: Save is disabled and the status says so. */
  saving?: boolean;
  /** Disables Save with or without JavaScript (a user who may not change anything). */
  disabled?: boolean;
  /** The button's text. */
  label?: string;
  /** Replaces the status text, e.g. why saving stopped or why the bar is disabled. */
  message?: string | null;
  messageTone?: "idle" | "error";
  /** The submit button's name and value, so the action knows what was asked. */
  name?: string;
  value?: string;
}

/**
 * The shared save bar: a sticky strip with a short status and a real submit button of the
 * surrounding `<Form method="post">`. Place it first in the form so that Enter in a field saves.
 */
export function SaveBar({
  dirty,
  saving = false,
  disabled = false,
  label = "Save",
  message,
  messageTone = "idle",
  name = "intent",
  value = "save",
}: SaveBarProps) {
  const hydrated = useHydrated();
  const bar = useRef<HTMLDivElement>(null);
  const button = useFocusKeptAcrossRemount();
  // Unsaved edits ask before the page is left (LeaveGuard); a user who may not save has none.
  useUnsavedChanges(dirty && !disabled, bar);
  const off = disabled || saving || (hydrated && !dirty);
  // With JavaScript, Save is held (aria-disabled) rather than disabled while a save is on its way or
  // nothing is unsaved: a disabled button drops the keyboard focus to the page's body, so after
  // every save the keyboard user would start again from the top. A held button keeps the focus and
  // refuses the click (Enter in a field clicks it too). A user who may not save gets it disabled.
  const held = off && hydrated && !disabled;
  const text = message ?? (saving ? "Saving…" : !hydrated ? "" : dirty ? "Unsaved changes" : "No unsaved changes");
  const tone = message ? messageTone : dirty && hydrated ? "dirty" : "idle";
  return (
    <div ref={bar} className={s.bar} data-testid="save-bar">
      <p
        className={s.status[tone]}
        role="status"
        aria-live="polite"
        // Why the save was refused: focus is taken there when no field is to blame.
        {...(message && messageTone === "error" ? { [FORM_ERROR_ATTRIBUTE]: "", tabIndex: -1 } : {})}
      >
        {text}
      </p>
      <button
        ref={button}
        type="submit"
        name={name}
        value={value}
        className={ui.button.primary}
        disabled={off && !held}
        aria-disabled={held || undefined}
        onClick={held ? (event) => event.preventDefault() : undefined}
        aria-busy={saving || undefined}
      >
        {label}
      </button>
    </div>
  );
}
