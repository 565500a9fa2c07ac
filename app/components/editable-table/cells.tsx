import type { ReactNode } from "react";
import * as ui from "~/styles/ui.css";
import * as s from "./EditableTable.css";

const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(" ");

interface CellProps {
  /** The input's id; its message gets `${id}-error`. */
  id: string;
  name: string;
  /** The accessible name, e.g. "Email, row 2". */
  label: string;
  value: string;
  errors?: string[];
  changed?: boolean;
  readOnly?: boolean;
  disabled?: boolean;
}

/** A cell's messages, below its input and named by it (aria-describedby). */
export function CellErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={`${id}-error`} className={ui.fieldError}>
      {errors.join("\n")}
    </p>
  );
}

/** What marks a cell's input invalid and points it at its messages. */
export const invalidProps = (id: string, errors?: string[]) =>
  errors?.length ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};

export function TextCell({
  id,
  name,
  label,
  value,
  errors,
  changed,
  readOnly,
  disabled,
  type = "text",
  placeholder,
  inputMode,
  onChange,
  children,
}: CellProps & {
  type?: "text" | "email";
  placeholder?: string;
  inputMode?: "text" | "decimal" | "url";
  onChange: (value: string) => void;
  /** Hidden fields that travel with this cell (ids, loaded values). */
  children?: ReactNode;
}) {
  return (
    <td>
      {children}
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        aria-label={label}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        inputMode={inputMode}
        // An address is never cut inside its box: the box grows with what is typed.
        size={type === "email" ? Math.max(24, value.length + 2) : undefined}
        readOnly={readOnly}
        disabled={disabled}
        className={cx(ui.input, s.cellInput, changed && s.changed)}
        onChange={(event) => onChange(event.currentTarget.value)}
        {...invalidProps(id, errors)}
      />
      <CellErrors id={id} errors={errors} />
    </td>
  );
}

/** Longer text (a prompt, a JSON object): a textarea of `rows` lines. */
export function TextAreaCell({
  id,
  name,
  label,
  value,
  errors,
  changed,
  readOnly,
  disabled,
  rows,
  placeholder,
  spellCheck = false,
  monospace,
  onChange,
  children,
}: CellProps & {
  rows: number;
  placeholder?: string;
  spellCheck?: boolean;
  /** For code-like text such as JSON. */
  monospace?: boolean;
  onChange: (value: string) => void;
  children?: ReactNode;
}) {
  return (
    <td>
      {children}
      <textarea
        id={id}
        name={name}
        value={value}
        rows={rows}
        aria-label={label}
        spellCheck={spellCheck}
        placeholder={placeholder}
        readOnly={readOnly}
        disabled={disabled}
        className={cx(ui.input, s.cellInput, s.cellTextArea, monospace && s.monospace, changed && s.changed)}
        onChange={(event) => onChange(event.currentTarget.value)}
        {...invalidProps(id, errors)}
      />
      <CellErrors id={id} errors={errors} />
    </td>
  );
}

export interface Option {
  value: string;
  label: string;
}

/**
 * A role: a select of the options the caller may give, or (when the row's current value is not
 * one of them, or the row is locked) its label, still posted through a hidden field.
 */
export function SelectCell({
  id,
  name,
  label,
  value,
  errors,
  changed,
  readOnly,
  disabled,
  options,
  placeholder,
  readOnlyText,
  onChange,
}: CellProps & {
  options: Option[];
  /** An empty first choice, for rows that have no value yet. */
  placeholder?: string;
  readOnlyText: string;
  onChange: (value: string) => void;
}) {
  if (readOnly) {
    return (
      <td>
        <input type="hidden" name={name} value={value} />
        <span id={id} className={s.readOnlyValue}>
          {readOnlyText}
        </span>
        <CellErrors id={id} errors={errors} />
      </td>
    );
  }
  return (
    <td>
      <select
        id={id}
        name={name}
        value={value}
        aria-label={label}
        disabled={disabled}
        className={cx(ui.input, s.cellInput, changed && s.changed)}
        onChange={(event) => onChange(event.currentTarget.value)}
        {...invalidProps(id, errors)}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <CellErrors id={id} errors={errors} />
    </td>
  );
}

/**
 * A value shown as text (a row not opened for editing), still posted through a hidden field so
 * the form carries every row. Long values wrap rather than being cut.
 */
export function TextValueCell({
  id,
  name,
  value,
  text,
  errors,
  children,
}: {
  id: string;
  name: string;
  value: string;
  text?: string;
  /** A refusal of a row that is not editable (the API's, after a save): said under the text, as under an input. */
  errors?: string[];
  children?: ReactNode;
}) {
  return (
    <td>
      {children}
      <input type="hidden" name={name} value={value} />
      <span id={id} className={s.textValue} {...(errors?.length ? { "aria-describedby": `${id}-error` } : {})}>
        {text ?? value}
      </span>
      <CellErrors id={id} errors={errors} />
    </td>
  );
}

export { cx };
