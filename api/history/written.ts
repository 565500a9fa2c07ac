import { CONTROL_TYPES, TOPIC_CONTROL_TYPES, type ChangeKind, type Control, type ControlType } from "@contract";

const isTopicRow = (control: unknown) =>
  (TOPIC_CONTROL_TYPES as readonly unknown[]).includes((control as Partial<Control> | null)?.internal_name);

/**
 * What of a recorded state is the operator's to change, so two states differ only where that
 * does. A topic is its list, text and disclaimer: its id only says which row holds it, and a
 * topic saved again under another row (an import that wrote the list again) is the same topic.
 * Every other kind's state is all of it.
 */
export function contentOf(kind: ChangeKind, state: unknown): unknown {
  if (kind !== "controls" || !Array.isArray(state)) return state;
  return state.map((control) => {
    if (!isTopicRow(control)) return control;
    const { id: _id, ...content } = control as Control;
    return content;
  });
}

/**
 * The controls (AI Personality, each topic list, the Quality Check) whose part differs between two
 * recorded states of a trigger point's controls, in the order of CONTROL_TYPES.
 */
export function controlsTouched(before: unknown, after: unknown): ControlType[] {
  const part = (state: unknown, type: string) => {
    const content = contentOf("controls", state);
    return JSON.stringify(
      Array.isArray(content) ? content.filter((control) => (control as Partial<Control>)?.internal_name === type) : [],
    );
  };
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
