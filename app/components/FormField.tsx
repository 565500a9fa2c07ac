import type { ReactNode } from "react";
import * as f from "~/styles/forms.css";
import * as ui from "~/styles/ui.css";

/**
 * What a field's frame needs of it: its control's id and its messages. A conform field is one, and
 * a plain form's field (no conform) gives the same two. Its message's id is always `${id}-error`,
 * as conform names it, so every form names its messages alike.
 */
export interface FieldState {
  id: string;
  errors?: string[];
}

export const errorIdOf = (field: FieldState) => `${field.id}-error`;
export const hintIdOf = (field: FieldState) => `${field.id}-hint`;

/**
 * The aria attributes of a control conform does not render: invalid while the field has messages,
 * described by its hint (when its frame shows one) and by its messages.
 */
export function fieldAria(field: FieldState, { hint = false }: { hint?: boolean } = {}) {
  const invalid = Boolean(field.errors?.length);
  const describedBy = [hint ? hintIdOf(field) : null, invalid ? errorIdOf(field) : null].filter(Boolean).join(" ");
  return { "aria-invalid": invalid || undefined, "aria-describedby": describedBy || undefined };
}

/** A labelled form field with its hint and its error messages (the server's, without JavaScript too). */
export function FormField({
  label,
  field,
  hint,
  className,
  children,
}: {
  label: string;
  field: FieldState;
  hint?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className ? `${ui.field} ${className}` : ui.field}>
      <label htmlFor={field.id} className={ui.label}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={hintIdOf(field)} className={f.hint}>
          {hint}
        </p>
      ) : null}
      {field.errors?.length ? (
        <p id={errorIdOf(field)} className={ui.fieldError}>
          {field.errors.join("\n")}
        </p>
      ) : null}
    </div>
  );
}
