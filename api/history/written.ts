import { CONTROL_TYPES, type ChangeKind, type Control, type ControlType } from "@contract";

/**
 * The controls (AI Personality, each topic list, the Quality Check) whose part differs between two
 * recorded states of a trigger point's controls, in the order of CONTROL_TYPES.
 */
export function controlsTouched(before: unknown, after: unknown): ControlType[] {
  const part = (state: unknown, type: string) =>
    JSON.stringify(
      Array.isArray(state) ? state.filter((control) => (control as Partial<Control>)?.internal_name === type) : [],
    );
  return CONTROL_TYPES.filter((type) => part(before, type) !== part(after, type));
}

/**
 * What a revert of a change writes back, as History records it beside the change (`written`): a
 * controls revert writes back only the controls its change touched; every other kind's revert
 * writes the whole thing (null). A later change is undone by the revert only when it wrote some of
 * the same: what History's `later_changes_on_revert` counts.
 */
export const writtenBy = (kind: ChangeKind, before: unknown, after: unknown): string[] | null =>
  kind === "controls" ? controlsTouched(before, after) : null;
