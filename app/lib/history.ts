/** What a History row counts of the later changes a revert or a restore of it would undo. */
export interface LaterChanges {
  /** Every later change to the same thing: a restore writes the whole thing back. */
  later_changes: number;
  /** Those that wrote some of what a revert writes back (a controls revert writes only the controls its change touched). */
  later_changes_on_revert: number;
  /** A production appearance: its revert and restore write stage's, so these are stage's later changes. */
  restores_into_stage: boolean;
}

/** The later changes the button of this intent undoes: what its question says, and what its form sends. */
export const laterChangesOn = (intent: "restore" | "revert", change: LaterChanges) =>
  intent === "revert" ? change.later_changes_on_revert : change.later_changes;
