import { useRef, type ReactNode } from "react";
import { useFocusOnShow } from "~/components/useFocusOnShow";
import { ACCEPT_FAILING_FIELD } from "~/lib/accept-failing";
import type { KnowledgeGate } from "~/server/production-gate.server";
import * as ui from "~/styles/ui.css";
import { GateSummary } from "./GateSummary";

/**
 * The second confirmation of a change that makes knowledge answer in production while stage fails
 * questions production passes: each such agent's runs and questions, then "Save anyway", which
 * posts the same form again (`form` names it) with the runs accepted.
 */
export function KnowledgeGateConfirm({
  gate,
  form,
  intent,
  cancelTo,
  children,
}: {
  gate: KnowledgeGate;
  /** The id of the form to post again, when the confirmation sits outside it. */
  form?: string;
  intent: string;
  cancelTo: string;
  children?: ReactNode;
}) {
  // The question takes focus when it appears, as other confirmation steps do: the change that
  // raised it (a ticked box, Save) is elsewhere on the page.
  const box = useRef<HTMLDivElement>(null);
  useFocusOnShow(box, gate.acceptKey);
  return (
    <div ref={box} tabIndex={-1} className={ui.card} role="group" aria-label="Confirm the change for production">
      {gate.agents.map(({ triggerPoint, name, gate: agentGate }) => (
        <GateSummary key={triggerPoint} gate={agentGate} agentLabel={name} />
      ))}
      <p>
        <strong>Make this knowledge answer in production anyway?</strong>
      </p>
      {children}
      <input type="hidden" name={ACCEPT_FAILING_FIELD} value={gate.acceptKey} form={form} />
      <div className={ui.toolbar}>
        <a href={cancelTo} className={ui.button.secondary}>
          Cancel
        </a>
        <button type="submit" name="intent" value={intent} form={form} className={ui.button.primary}>
          Save anyway
        </button>
      </div>
    </div>
  );
}
