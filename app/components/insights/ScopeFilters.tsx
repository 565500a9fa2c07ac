import { INSIGHT_ENVIRONMENT_LABELS, INSIGHT_ENVIRONMENTS } from "@contract/values/insights";
import * as ui from "~/styles/ui.css";
import * as s from "./insights.css";

/**
 * The two filters every Business Insights screen scopes by: the trigger point (one of the
 * client's, or all) and the environment. `idPrefix` keeps the ids apart between screens.
 */
export function ScopeFilters({
  idPrefix,
  triggerPoints,
  triggerPoint,
  triggerPointError = null,
  environment,
}: {
  idPrefix: string;
  triggerPoints: string[];
  triggerPoint: string | undefined;
  /** Why the address's trigger point is not the one shown, said by the selector. */
  triggerPointError?: string | null;
  environment: string | undefined;
}) {
  const errorId = `${idPrefix}-trigger-point-error`;
  return (
    <>
      <div className={s.filterField}>
        <label htmlFor={`${idPrefix}-trigger-point`} className={ui.label}>
          Trigger point
        </label>
        <select
          id={`${idPrefix}-trigger-point`}
          name="triggerPoint"
          defaultValue={triggerPoint ?? ""}
          className={ui.input}
          {...(triggerPointError ? { "aria-invalid": true, "aria-describedby": errorId } : {})}
        >
          <option value="">All</option>
          {triggerPoints.map((tp) => (
            <option key={tp} value={tp}>
              {tp}
            </option>
          ))}
        </select>
        {triggerPointError ? (
          <p id={errorId} role="alert" className={ui.fieldError}>
            {triggerPointError}
          </p>
        ) : null}
      </div>
      <div className={s.filterField}>
        <label htmlFor={`${idPrefix}-environment`} className={ui.label}>
          Environment
        </label>
        <select id={`${idPrefix}-environment`} name="environment" defaultValue={environment} className={ui.input}>
          {INSIGHT_ENVIRONMENTS.map((env) => (
            <option key={env} value={env}>
              {INSIGHT_ENVIRONMENT_LABELS[env]}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
