import { getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { AI_PROBING_TYPES, PROBING_TEXT_ROWS } from "@contract/values/controls";
import { AI_PROBING_LABELS } from "@contract/values/controls";
import { FormField } from "~/components/FormField";
import type { ProbingFormValue } from "~/lib/controls.schema";
import * as ui from "~/styles/ui.css";
import { ControlsForm } from "./ControlsForm";
import * as s from "./controls.css";

/** User Probing Guidelines: 'Topics For Probing' and 'Topics to Prob Mapping', 10 rows each. */
export function ProbingForm({
  texts,
  lastResult,
  readOnly,
}: {
  texts: ProbingFormValue;
  lastResult: SubmissionResult<string[]> | undefined;
  readOnly: boolean;
}) {
  const defaultValue = useMemo(
    () => ({ topics: texts.topics, topic_to_prob_mapping: texts.topic_to_prob_mapping }),
    [texts.topics, texts.topic_to_prob_mapping],
  );
  const [form, fields] = useForm<ProbingFormValue>({ id: "smart-probing", lastResult, defaultValue });
  return (
    <ControlsForm form={form} label="User Probing Guidelines" baseline={defaultValue} readOnly={readOnly}>
      {AI_PROBING_TYPES.map((type) => {
        const field = fields[type];
        return (
          <FormField key={type} label={AI_PROBING_LABELS[type]} field={field}>
            <textarea {...getTextareaProps(field)} rows={PROBING_TEXT_ROWS} className={`${ui.input} ${s.textarea}`} />
          </FormField>
        );
      })}
    </ControlsForm>
  );
}
