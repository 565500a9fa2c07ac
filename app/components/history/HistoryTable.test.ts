import { describe, expect, it } from "vitest";
import { LATER_CHANGES_CAP, type ChangeKind } from "@contract/values/history";
import { laterChangesQuestion, type ShownChange } from "./HistoryTable";

const change = (later: number, onRevert = later, kind: ChangeKind = "data_model"): ShownChange => ({
  id: 7,
  at: "2026-11-02T10:00:00.000Z",
  user_email: "client.admin@example.com",
  kind,
  summary:
    kind === "controls" ? "No-Go Topics of Admissions Assistant changed" : "User profile data model: added gpa_score",
  changes: [],
  later_changes: later,
  later_changes_on_revert: onRevert,
  restores_into_stage: false,
});

describe("the question before undoing later changes", () => {
  it("says one later change is undone, and several are", () => {
    expect(laterChangesQuestion("revert", change(1))).toBe(
      "Revert “User profile data model: added gpa_score” (11/02/2026 | 10:00 UTC)? What it changed goes back to how it was before it, so the change made to it since is undone too.",
    );
    expect(laterChangesQuestion("restore", change(3))).toBe(
      "Restore the state “User profile data model: added gpa_score” (11/02/2026 | 10:00 UTC) led to? What it changed goes back to how it was after it, so the 3 changes made to it since are undone too.",
    );
  });

  it("counts for a revert of controls only the later changes to the controls it writes back, and says so", () => {
    // Three later changes to Admissions' controls, one of them to its No-Go topics.
    const noGo = change(3, 1, "controls");
    expect(laterChangesQuestion("revert", noGo)).toBe(
      "Revert “No-Go Topics of Admissions Assistant changed” (11/02/2026 | 10:00 UTC)? What it changed goes back to how it was before it, so the change made since to the same controls is undone too.",
    );
    expect(laterChangesQuestion("restore", noGo)).toContain("so the 3 changes made to it since are undone too.");
  });

  it("says that a production appearance's later changes counted are stage's, which its revert and restore write", () => {
    const pushed: ShownChange = {
      ...change(2, 2, "appearance"),
      summary: "Appearance of Default (production): Primary color",
      restores_into_stage: true,
    };
    expect(laterChangesQuestion("revert", pushed)).toBe(
      "Revert “Appearance of Default (production): Primary color” (11/02/2026 | 10:00 UTC)? Stage's appearance goes back to how production's was before it, so the 2 changes made since to stage's appearance are undone too.",
    );
    expect(laterChangesQuestion("restore", { ...pushed, later_changes: 1 })).toBe(
      "Restore the state “Appearance of Default (production): Primary color” (11/02/2026 | 10:00 UTC) led to? Stage's appearance becomes what production's was after it, so the change made since to stage's appearance is undone too.",
    );
  });

  it("says a count at the cap may be more", () => {
    expect(laterChangesQuestion("revert", change(LATER_CHANGES_CAP))).toContain(
      `the ${LATER_CHANGES_CAP} or more changes made to it since are undone too.`,
    );
  });
});
