import { useState } from "react";
import {
  APPEARANCE_FIELDS,
  APPEARANCE_SECTION_TITLES,
  APPEARANCE_SECTIONS,
  type AppearanceField,
  type AppearanceValues,
} from "@contract/values/appearance";
import { IMAGE_MAX_MB } from "@contract/values/files";
import { errorIdOf, fieldAria, hintIdOf } from "~/components/FormField";
import { pickedColourName, pickerColour, removeImageName, shownColourName } from "~/lib/appearance";
import * as f from "~/styles/forms.css";
import * as ui from "~/styles/ui.css";
import * as s from "./appearance.css";

/** What an image field takes, said before it is chosen rather than only when a file is refused. */
const IMAGE_HINT = `A PNG, JPEG, GIF, WebP or SVG image, at most ${IMAGE_MAX_MB} MB.`;

/** The aria attributes that tie a field's control to its message. */
type FieldAria = ReturnType<typeof fieldAria>;

/** A colour typed as text or picked with the picker; both are the same value (the form sends it to the preview). */
function ColourInput({
  field,
  value,
  readOnly,
  aria,
}: {
  field: AppearanceField;
  value: string;
  readOnly: boolean;
  aria: FieldAria;
}) {
  const [text, setText] = useState(value);
  return (
    <span className={s.colour}>
      <input type="hidden" name={shownColourName(field.internalName)} value={value} />
      <input
        type="color"
        name={pickedColourName(field.internalName)}
        className={s.swatch}
        aria-label={`${field.label} picker`}
        value={pickerColour(text)}
        disabled={readOnly}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      <input
        id={field.internalName}
        name={field.internalName}
        className={ui.input}
        value={text}
        readOnly={readOnly}
        spellCheck={false}
        onChange={(event) => setText(event.currentTarget.value)}
        {...aria}
      />
    </span>
  );
}

function FieldInput({
  field,
  value,
  readOnly,
  aria,
}: {
  field: AppearanceField;
  value: AppearanceValues[string];
  readOnly: boolean;
  aria: FieldAria;
}) {
  switch (field.type) {
    case "color":
      return <ColourInput field={field} value={String(value)} readOnly={readOnly} aria={aria} />;
    case "number":
      return (
        <input
          id={field.internalName}
          name={field.internalName}
          type="number"
          min={field.min}
          max={field.max}
          step={1}
          defaultValue={String(value)}
          readOnly={readOnly}
          className={ui.input}
          {...aria}
        />
      );
    case "boolean":
      return (
        <span>
          <input type="hidden" name={field.internalName} value="false" />
          <input
            id={field.internalName}
            name={field.internalName}
            type="checkbox"
            value="true"
            defaultChecked={value === true}
            disabled={readOnly}
            {...aria}
          />
        </span>
      );
    case "select":
      return (
        <select
          id={field.internalName}
          name={field.internalName}
          defaultValue={String(value)}
          disabled={readOnly}
          className={ui.input}
          {...aria}
        >
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case "radio":
      return (
        <span role="radiogroup" aria-labelledby={`${field.internalName}-label`} {...aria}>
          {field.options.map((o) => (
            <label key={o.value}>
              <input
                type="radio"
                name={field.internalName}
                value={o.value}
                defaultChecked={value === o.value}
                disabled={readOnly}
              />{" "}
              {o.label}{" "}
            </label>
          ))}
        </span>
      );
    case "image":
      return (
        <span className={s.image}>
          {value ? <img src={String(value)} alt="" className={s.thumb} /> : null}
          <input type="hidden" name={field.internalName} value={String(value)} />
          {readOnly ? null : (
            <>
              <input
                id={field.internalName}
                name={`${field.internalName}__file`}
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp,image/svg+xml"
                className={`${ui.input} ${s.file}`}
                {...aria}
              />
              {value ? (
                <label>
                  <input type="checkbox" name={removeImageName(field.internalName)} value="true" /> Remove
                </label>
              ) : null}
            </>
          )}
        </span>
      );
    default: {
      const text = {
        id: field.internalName,
        name: field.internalName,
        defaultValue: String(value),
        maxLength: field.maxLength,
        required: field.required,
        readOnly,
        className: ui.input,
        ...aria,
      };
      return field.multiline ? <textarea {...text} rows={3} /> : <input {...text} />;
    }
  }
}

/** The three collapsible sections (Basic settings, Images & Icons, Advanced Settings), fields grouped as the catalogue says. */
export function AppearanceFields({
  values,
  errors,
  readOnly,
}: {
  values: AppearanceValues;
  errors: Record<string, string>;
  readOnly: boolean;
}) {
  const order = [APPEARANCE_SECTIONS[0], APPEARANCE_SECTIONS[2], APPEARANCE_SECTIONS[1]];
  return (
    <>
      {order.map((section) => {
        const fields = APPEARANCE_FIELDS[section].filter((f) => !f.isHidden);
        const groups = [...new Set(fields.map((f) => f.group))];
        return (
          <details
            key={section}
            className={s.section}
            open={
              section !== "ADVANCED_SETTINGS_FIELDS" ||
              Object.keys(errors).some((name) => fields.some((f) => f.internalName === name))
            }
          >
            <summary className={s.summary}>{APPEARANCE_SECTION_TITLES[section]}</summary>
            {groups.map((group) => (
              <fieldset key={group} className={s.group}>
                <legend className={s.legend}>{group}</legend>
                {fields
                  .filter((f) => f.group === group)
                  .map((field) => {
                    const error = errors[field.internalName];
                    const state = { id: field.internalName, errors: error ? [error] : undefined };
                    const hinted = field.type === "image" && !readOnly;
                    return (
                      <div key={field.internalName} className={field.multiline ? `${ui.field} ${s.wide}` : ui.field}>
                        <label id={`${field.internalName}-label`} htmlFor={field.internalName} className={ui.label}>
                          {field.label}
                          {field.unit ? ` (${field.unit})` : ""}
                        </label>
                        <FieldInput
                          field={field}
                          value={values[field.internalName] ?? field.defaultValue}
                          readOnly={readOnly}
                          aria={fieldAria(state, { hint: hinted })}
                        />
                        {hinted ? (
                          <p id={hintIdOf(state)} className={f.hint}>
                            {IMAGE_HINT}
                          </p>
                        ) : null}
                        {error ? (
                          <p id={errorIdOf(state)} className={ui.fieldError} role="alert">
                            {error}
                          </p>
                        ) : null}
                      </div>
                    );
                  })}
              </fieldset>
            ))}
          </details>
        );
      })}
    </>
  );
}
