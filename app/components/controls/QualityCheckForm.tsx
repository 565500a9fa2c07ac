import { getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { QUALITY_CHECK_FIELDS, type QualityCheckField } from "@contract/values/controls";
import type { QualityCheckSettings } from "@contract";
import { FormField } from "~/components/FormField";
import { qualityBaseline } from "~/lib/controls";
import { useZodValidationOnFirstUse } from "~/lib/use-zod-validation-on-first-use";
import * as f from "~/styles/forms.css";
import * as ui from "~/styles/ui.css";
import { ControlsForm } from "./ControlsForm";
import * as s from "./controls.css";

/** The form's schema, fetched when the form is first used (see useZodValidationOnFirstUse). */
const loadSchema = () => import("~/lib/controls.schema").then((module) => module.QualityCheckForm);

/**
 * Hallucination Accuracy & Quality Check: the fields of QUALITY_CHECK_FIELDS, checked in the
 * browser with the same rules the server applies (and shown beside each field either way).
 */
export function QualityCheckForm({
  settings,
  lastResult,
  readOnly,
}: {
  settings: QualityCheckSettings;
  lastResult: SubmissionResult<string[]> | undefined;
  readOnly: boolean;
}) {
  const baseline = useMemo(() => qualityBaseline(settings), [settings]);
  const onValidate = useZodValidationOnFirstUse("quality-check", loadSchema);
  const [form, fields] = useForm<QualityCheckSettings>({
    id: "quality-check",
    lastResult,
    defaultValue: settings,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate,
  });

  const control = (definition: QualityCheckField) => {
    const hintId = `${fields[definition.name].id}-hint`;
    switch (definition.type) {
      case "number": {
        const field = fields[definition.name];
        return (
          <FormField key={definition.name} label={definition.label} field={field} hint={definition.help}>
            <input
              {...getInputProps(field, { type: "number", ariaDescribedBy: hintId })}
              min={definition.min}
              max={definition.max}
              step={definition.step}
              inputMode="decimal"
              className={`${ui.input} ${s.narrowInput}`}
            />
          </FormField>
        );
      }
      case "boolean": {
        const field = fields[definition.name];
        return (
          <div key={definition.name} className={ui.field}>
            <div className={s.checkboxRow}>
              <input {...getInputProps(field, { type: "checkbox", ariaDescribedBy: hintId })} />
              <label htmlFor={field.id} className={ui.label}>
                {definition.label}
              </label>
            </div>
            <p id={hintId} className={f.hint}>
              {definition.help}
            </p>
            {field.errors?.length ? (
              <p id={field.errorId} className={ui.fieldError}>
                {field.errors.join("\n")}
              </p>
            ) : null}
          </div>
        );
      }
      case "text": {
        const field = fields[definition.name];
        return (
          <FormField key={definition.name} label={definition.label} field={field} hint={definition.help}>
            <textarea
              {...getTextareaProps(field, { ariaDescribedBy: hintId })}
              maxLength={definition.maxLength}
              rows={3}
              className={`${ui.input} ${s.textarea}`}
            />
          </FormField>
        );
      }
    }
  };

  return (
    <ControlsForm form={form} label="Hallucination Accuracy & Quality Check" baseline={baseline} readOnly={readOnly}>
      {QUALITY_CHECK_FIELDS.map(control)}
    </ControlsForm>
  );
}
