import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { FormField, fieldAria } from "~/components/FormField";
import { FORM_ERROR_ATTRIBUTE, useFocusFirstProblemOnAnswer } from "~/components/useFocusFirstProblem";
import { QUESTION_FIELDS, loadedFieldName, type QuestionFormValues } from "~/lib/test-questions";
import { OutcomeOptions } from "./OutcomeOptions";
import * as ui from "~/styles/ui.css";
import * as s from "./testing.css";

/**
 * Adding a test question, or changing the one `?edit=` names: a plain POST to the screen. A
 * refusal comes back with what was typed and each message beside its field. An edit posts the
 * values it was loaded with too, so that a save changes only the fields changed here.
 */
export function QuestionForm({
  editingId,
  values,
  loaded,
  fieldErrors,
  formError,
}: {
  editingId: number | null;
  values: QuestionFormValues;
  /** The edited question's values as this form counts them loaded (null when adding). */
  loaded: QuestionFormValues | null;
  fieldErrors: Record<string, string[]>;
  formError: string | null;
}) {
  const location = useLocation();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstProblemOnAnswer(formRef);
  // Edit opens this form above the table: the keyboard follows it there, to the question.
  useEffect(() => {
    if (editingId) formRef.current?.querySelector<HTMLElement>("[name=question]")?.focus();
  }, [editingId]);
  const saving =
    navigation.state === "submitting" && navigation.formData?.get("intent") === (editingId ? "update" : "add");
  const cancel = new URLSearchParams(location.search);
  cancel.delete("edit");
  const state = (name: keyof QuestionFormValues) => ({ id: `test-question-${name}`, errors: fieldErrors[name] });
  const field = (name: keyof QuestionFormValues) => ({
    id: state(name).id,
    name,
    defaultValue: values[name],
    ...fieldAria(state(name)),
    className: ui.input,
  });
  return (
    <Form
      ref={formRef}
      method="post"
      className={`${ui.card} ${s.card}`}
      aria-label={editingId ? "Change the test question" : "Add a test question"}
      preventScrollReset
    >
      <h2>{editingId ? "Change the test question" : "Add a test question"}</h2>
      {formError ? (
        <p role="alert" className={ui.fieldError} {...{ [FORM_ERROR_ATTRIBUTE]: "" }} tabIndex={-1}>
          {formError}
        </p>
      ) : null}
      {editingId ? <input type="hidden" name="id" value={editingId} /> : null}
      {editingId && loaded
        ? QUESTION_FIELDS.map((name) => (
            <input key={name} type="hidden" name={loadedFieldName(name)} value={loaded[name]} />
          ))
        : null}
      <div className={s.grid}>
        <FormField label="Question" field={state("question")} className={s.wide}>
          <textarea {...field("question")} rows={2} maxLength={1000} required />
        </FormField>
        <FormField
          label="Expected source"
          field={state("expect_source")}
          hint="A page address or a file name the answer must cite."
        >
          <input {...field("expect_source")} maxLength={2000} />
        </FormField>
        <FormField label="Expected text" field={state("expect_text")} hint="Words the answer must contain.">
          <input {...field("expect_text")} maxLength={500} />
        </FormField>
        <FormField label="Expected outcome" field={state("expect_outcome")}>
          <select {...field("expect_outcome")}>
            <OutcomeOptions anyLabel="Any" />
          </select>
        </FormField>
      </div>
      <div className={ui.toolbar}>
        <button
          type="submit"
          name="intent"
          value={editingId ? "update" : "add"}
          className={ui.button.primary}
          disabled={saving}
        >
          {editingId ? "Save question" : "Add question"}
        </button>
        {editingId ? (
          <Link to={`?${cancel}`} className={ui.button.secondary} preventScrollReset>
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
