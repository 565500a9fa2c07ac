import type { ReactNode } from "react";
import { TriggerPointSelect } from "~/components/TriggerPointSelect";
import type { TriggerPointChoice } from "~/lib/trigger-points";
import * as ui from "~/styles/ui.css";
import * as s from "./controls.css";

/** The frame of every controls screen: title, what it is for, the trigger point, then the form or the load error. */
export function ControlsScreen({
  title,
  intro,
  choice,
  error,
  children,
}: {
  title: string;
  intro?: string;
  choice: TriggerPointChoice;
  error: string | null;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="controls-title">
      <h1 id="controls-title">{title}</h1>
      {intro ? <p className={`${ui.muted} ${s.intro}`}>{intro}</p> : null}
      <TriggerPointSelect choice={choice} />
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : (
        children
      )}
    </section>
  );
}
