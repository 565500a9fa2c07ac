import { Form, useFormAction, useNavigation } from "@remix-run/react";
import { useRef } from "react";
import type { ConversationMessage } from "@contract";
import { FormField, fieldAria } from "~/components/FormField";
import { heldWhile } from "~/components/heldWhile";
import { FORM_ERROR_ATTRIBUTE, useFocusFirstProblemOnAnswer } from "~/components/useFocusFirstProblem";
import { CORRECTION_ANCHORS, traceSources, type TestQuestionFromAnswer } from "~/lib/conversations";
import { OutcomeOptions } from "~/components/testing/OutcomeOptions";
import * as ui from "~/styles/ui.css";
import * as s from "./conversations.css";

/** What a refused "Add as test question" brought back for this answer: the values as typed and the messages. */
export interface PostedTestQuestion {
  values: TestQuestionFromAnswer;
  fieldErrors: Partial<Record<keyof TestQuestionFromAnswer, string[]>>;
  formError: string | null;
}

/** "Mark reviewed" or "Mark not reviewed": one button, so a team can work through the answers visitors rated unhelpful. */
export function ReviewForm({ answer }: { answer: ConversationMessage }) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "review" &&
    navigation.formData?.get("message_id") === String(answer.id);
  return (
    <Form method="post" className={s.inlineForm} preventScrollReset replace>
      <input type="hidden" name="intent" value="review" />
      <input type="hidden" name="message_id" value={answer.id} />
      <input type="hidden" name="reviewed" value={answer.reviewed ? "false" : "true"} />
      <button
        type="submit"
        id={CORRECTION_ANCHORS.review(answer.id)}
        className={ui.button.secondary}
        {...heldWhile(busy)}
      >
        {answer.reviewed ? "Mark not reviewed" : "Mark reviewed"}
      </button>
    </Form>
  );
}

/**
 * "Add as test question", prefilled from the answer: its question, its outcome, and as the expected
 * source a page of its trace (chosen, or typed instead). A `<details>` that opens without
 * JavaScript, and stays open with what was typed and the messages when the API refuses it.
 */
export function TestQuestionForm({
  answer,
  values,
  posted,
}: {
  answer: ConversationMessage;
  values: TestQuestionFromAnswer;
  posted: PostedTestQuestion | null;
}) {
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  // Without JavaScript a refused post comes back as a new page: the address's fragment brings the
  // browser back to this form, its messages beside the fields, not to the page's top.
  const formId = `add-test-question-${answer.id}`;
  const action = `${useFormAction()}#${formId}`;
  // Only the form the answer is about marks fields: the others find nothing to focus.
  useFocusFirstProblemOnAnswer(formRef);
  const saving =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "add-test-question" &&
    navigation.formData?.get("message_id") === String(answer.id);
  const shown = posted?.values ?? values;
  const errors = posted?.fieldErrors ?? {};
  const sources = traceSources(answer.trace);
  // A source chosen earlier that is not in the trace (a refused post) stays among the choices.
  if (shown.expect_source && !sources.some((source) => source.value === shown.expect_source))
    sources.push({ value: shown.expect_source, label: shown.expect_source });
  const state = (name: keyof TestQuestionFromAnswer) => ({ id: `answer-${answer.id}-${name}`, errors: errors[name] });
  const field = (name: keyof TestQuestionFromAnswer) => ({
    id: state(name).id,
    name,
    defaultValue: shown[name],
    className: ui.input,
    ...fieldAria(state(name)),
  });
  return (
    <details className={s.disclosure} open={posted ? true : undefined}>
      <summary id={CORRECTION_ANCHORS.testQuestion(answer.id)} className={s.disclosureSummary}>
        Add as test question
      </summary>
      <Form
        ref={formRef}
        id={formId}
        method="post"
        action={action}
        className={s.correctionForm}
        aria-label="Add as test question"
        preventScrollReset
        replace
      >
        <input type="hidden" name="intent" value="add-test-question" />
        <input type="hidden" name="message_id" value={answer.id} />
        {posted?.formError ? (
          <p role="alert" className={ui.fieldError} {...{ [FORM_ERROR_ATTRIBUTE]: "" }} tabIndex={-1}>
            {posted.formError}
          </p>
        ) : null}
        {answer.rating === "down" ? (
          <p className={ui.muted}>
            The visitor rated this answer unhelpful: the test must fail on it, so say what a right answer cites or
            contains.
          </p>
        ) : null}
        <FormField label="Question" field={state("question")}>
          <textarea {...field("question")} rows={2} maxLength={1000} />
        </FormField>
        <FormField label="Expected outcome" field={state("expect_outcome")}>
          <select {...field("expect_outcome")}>
            <OutcomeOptions anyLabel="Any" />
          </select>
        </FormField>
        <FormField
          label="Expected source"
          field={state("expect_source")}
          hint="A page or file of this answer's trace the answer must cite."
        >
          <select {...field("expect_source")}>
            <option value="">None</option>
            {sources.map((source) => (
              <option key={source.value} value={source.value}>
                {source.label}
              </option>
            ))}
          </select>
        </FormField>
        <FormField
          label="Or type the expected source"
          field={state("expect_source_typed")}
          hint="A page address or a file name; used instead of the choice above when filled."
        >
          <input {...field("expect_source_typed")} maxLength={2000} />
        </FormField>
        <FormField label="Expected text" field={state("expect_text")} hint="Words the answer must contain.">
          <input {...field("expect_text")} maxLength={500} />
        </FormField>
        <div>
          <button type="submit" className={ui.button.primary} {...heldWhile(saving)}>
            Add test question
          </button>
        </div>
      </Form>
    </details>
  );
}
