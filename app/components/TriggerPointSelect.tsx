import { Form } from "@remix-run/react";
import { SelfApplyingSelect } from "~/components/SelfApplyingSelect";
import { HiddenParams } from "~/components/urls/params";
import { DEFAULT_TRIGGER_POINT_LABEL, type TriggerPointChoice } from "~/lib/trigger-points";
import * as ui from "~/styles/ui.css";

/**
 * The trigger-point selector of the per-trigger-point screens (controls, prompts, appearance): a
 * GET form on `trigger_point`, so the choice lives in the address. With JavaScript a change loads
 * at once; without it, 'Show' submits. When there is nothing to choose (no trigger points, or an
 * agent fixes one) it still says which trigger point the page edits.
 */
export function TriggerPointSelect({ choice }: { choice: TriggerPointChoice }) {
  if (!choice.selectable) {
    return (
      <p className={`${ui.muted} ${ui.toolbar}`}>
        <span>
          Trigger point: <strong>{choice.triggerPoint || DEFAULT_TRIGGER_POINT_LABEL}</strong>
        </span>
      </p>
    );
  }
  return (
    <Form method="get" className={ui.toolbar} aria-label="Choose trigger point">
      <HiddenParams omit={["trigger_point"]} />
      <label className={ui.label} htmlFor="trigger-point">
        Trigger point
      </label>
      <SelfApplyingSelect
        id="trigger-point"
        name="trigger_point"
        value={choice.triggerPoint}
        options={choice.options}
        button="Show"
      />
    </Form>
  );
}
