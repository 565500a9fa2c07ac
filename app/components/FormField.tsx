import type { ReactNode } from "react";
import * as f from "~/styles/forms.css";
import * as ui from "~/styles/ui.css";

/** A labelled form field with its hint and its error messages (the server's, without JavaScript too). */
export function FormField({
  label,
  id,
  errorId,
  errors,
  hint,
  className,
  children,
}: {
  label: string;
  id: string;
  errorId: string;
  errors: string[] | undefined;
  hint?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className ? `${ui.field} ${className}` : ui.field}>
      <label htmlFor={id} className={ui.label}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className={f.hint}>
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={errorId} className={ui.fieldError}>
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
