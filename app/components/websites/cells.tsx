import type { ReactNode } from "react";
import { CellErrors, cx, invalidProps } from "~/components/editable-table/cells";
import { formatPatterns, parsePatterns, suggestionOptions } from "~/lib/websites";
import * as ui from "~/styles/ui.css";
import * as s from "./WebsitesTable.css";

interface CellProps {
  /** The control's id; its message gets `${id}-error`. */
  id: string;
  name: string;
  /** The accessible name, e.g. "Urls, row 2". */
  label: string;
  errors?: string[];
  changed?: boolean;
  readOnly?: boolean;
}

/** The website's address, with the red dot beside it when its sitemap changed. */
export function UrlCell({
  id,
  name,
  label,
  value,
  errors,
  changed,
  readOnly,
  marker,
  onChange,
  children,
}: CellProps & {
  value: string;
  marker?: ReactNode;
  onChange: (value: string) => void;
  /** Hidden fields that travel with the row (id, loaded values). */
  children?: ReactNode;
}) {
  return (
    <td>
      {children}
      <div className={s.urlCell}>
        <input
          id={id}
          name={name}
          type="text"
          inputMode="url"
          value={value}
          placeholder="https://"
          aria-label={label}
          autoComplete="off"
          spellCheck={false}
          readOnly={readOnly}
          className={cx(ui.input, s.cellInput, s.urlInput, changed && s.changed)}
          onChange={(event) => onChange(event.currentTarget.value)}
          {...invalidProps(id, errors)}
        />
        {marker}
      </div>
      <CellErrors id={id} errors={errors} />
    </td>
  );
}

export function SelectCell({
  id,
  name,
  label,
  value,
  errors,
  changed,
  readOnly,
  options,
  placeholder,
  onChange,
}: CellProps & {
  value: string;
  options: readonly string[];
  placeholder: string;
  onChange: (value: string) => void;
}) {
  return (
    <td>
      {readOnly ? <input type="hidden" name={name} value={value} /> : null}
      <select
        id={id}
        name={readOnly ? undefined : name}
        value={value}
        aria-label={label}
        disabled={readOnly}
        className={cx(ui.input, s.cellInput, s.selectInput, changed && s.changed)}
        onChange={(event) => onChange(event.currentTarget.value)}
        {...invalidProps(id, errors)}
      >
        {value === "" || !options.includes(value) ? <option value={value}>{value || placeholder}</option> : null}
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <CellErrors id={id} errors={errors} />
    </td>
  );
}

/** Data Tags: one checkbox per offered tag, grouped under the cell's name. */
export function TagsCell({
  id,
  name,
  label,
  value,
  options,
  errors,
  changed,
  readOnly,
  onChange,
}: CellProps & {
  value: string[];
  options: string[];
  onChange: (value: string[]) => void;
}) {
  return (
    <td>
      <fieldset
        id={id}
        className={cx(s.tags, changed && s.tagsChanged, Boolean(errors?.length) && s.tagsInvalid)}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
      >
        <legend className={ui.visuallyHidden}>{label}</legend>
        {options.map((tag) => {
          const checked = value.includes(tag);
          return (
            <label key={tag} className={s.tagOption}>
              {readOnly && checked ? <input type="hidden" name={name} value={tag} /> : null}
              <input
                type="checkbox"
                name={readOnly ? undefined : name}
                value={tag}
                checked={checked}
                disabled={readOnly}
                onChange={(event) =>
                  onChange(event.currentTarget.checked ? [...value, tag] : value.filter((t) => t !== tag))
                }
              />
              {tag}
            </label>
          );
        })}
      </fieldset>
      <CellErrors id={id} errors={errors} />
    </td>
  );
}

/**
 * Skip or allowed patterns: comma-separated text, with the spec's suggestions offered through a
 * datalist that completes the item being typed and keeps the ones before it.
 */
export function PatternsCell({
  id,
  name,
  label,
  value,
  suggestions,
  errors,
  changed,
  readOnly,
  onChange,
}: CellProps & {
  value: string;
  suggestions: readonly string[];
  onChange: (value: string) => void;
}) {
  const listId = `${id}-suggestions`;
  return (
    <td>
      <input
        id={id}
        name={name}
        type="text"
        value={value}
        list={readOnly ? undefined : listId}
        aria-label={label}
        title="Comma-separated"
        autoComplete="off"
        spellCheck={false}
        readOnly={readOnly}
        className={cx(ui.input, s.cellInput, changed && s.changed)}
        onChange={(event) => onChange(event.currentTarget.value)}
        onBlur={(event) => {
          // Tidy the text once the user leaves the box (what is saved is the parsed list anyway).
          const tidy = formatPatterns(parsePatterns(event.currentTarget.value));
          if (tidy !== value) onChange(tidy);
        }}
        {...invalidProps(id, errors)}
      />
      {readOnly ? null : (
        <datalist id={listId}>
          {suggestionOptions(value, suggestions).map((option) => (
            <option key={option.label} value={option.value} label={option.label} />
          ))}
        </datalist>
      )}
      <CellErrors id={id} errors={errors} />
    </td>
  );
}
