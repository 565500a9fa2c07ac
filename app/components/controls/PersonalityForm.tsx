import { getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { AI_PERSONALITY, CONTROL_HELP_TEXTS, CONTROL_LABELS } from "@contract/values/controls";
import { FormField } from "~/components/FormField";
import type { PersonalityFormValue } from "~/lib/controls.schema";
import * as ui from "~/styles/ui.css";
import { ControlsForm } from "./ControlsForm";
import * as s from "./controls.css";

/** AI Personality: the one large 'Chatbot Personality' text. */
export function PersonalityForm({
  text,
  lastResult,
  readOnly,
}: {
  text: string;
  lastResult: SubmissionResult<string[]> | undefined;
  readOnly: boolean;
}) {
  const defaultValue = useMemo(() => ({ prompt_input_raw: text }), [text]);
  const [form, fields] = useForm<PersonalityFormValue>({ id: "ai-personality", lastResult, defaultValue });
  const field = fields.prompt_input_raw;
  return (
    <ControlsForm form={form} label="AI Personality" baseline={defaultValue} readOnly={readOnly}>
      <FormField label={CONTROL_LABELS[AI_PERSONALITY]} field={field} hint={CONTROL_HELP_TEXTS[AI_PERSONALITY]}>
        <textarea
          {...getTextareaProps(field, { ariaDescribedBy: `${field.id}-hint` })}
          rows={24}
          className={`${ui.input} ${s.personality}`}
        />
      </FormField>
    </ControlsForm>
  );
}
