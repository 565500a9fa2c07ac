import { CHAT_OUTCOMES } from "@contract/values/chat";
import { OUTCOME_LABELS } from "~/lib/test-questions";

/** A select's options for an answer's outcome: first the choice of any outcome, then each of the chat's. */
export function OutcomeOptions({ anyLabel }: { anyLabel: string }) {
  return (
    <>
      <option value="">{anyLabel}</option>
      {CHAT_OUTCOMES.map((outcome) => (
        <option key={outcome} value={outcome}>
          {OUTCOME_LABELS[outcome]}
        </option>
      ))}
    </>
  );
}
