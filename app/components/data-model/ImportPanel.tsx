import { Form, Link } from "@remix-run/react";
import { useRef } from "react";
import { useFocusOnShow } from "~/components/useFocusOnShow";
import { DATA_MODEL_MESSAGES } from "@contract/values/personalisation";
import * as ui from "~/styles/ui.css";
import * as s from "./data-model.css";

/**
 * Import (`?import=1`): copies another client's model of this kind over this one, after the spec's
 * warning. Rendered by the server, so it works without JavaScript; the link back cancels.
 */
export function ImportPanel({
  noun,
  choices,
  cancelTo,
  posted,
}: {
  noun: string;
  choices: { code: string; name: string }[];
  cancelTo: string;
  posted: { code: string; error: string } | null;
}) {
  const box = useRef<HTMLFormElement>(null);
  useFocusOnShow(box, null);
  const errorId = "import-app-code-error";
  return (
    <Form
      method="post"
      ref={box}
      tabIndex={-1}
      className={s.question}
      aria-label={`Import a ${noun} data model`}
      noValidate
      preventScrollReset
    >
      <p role="alert" className={s.questionText}>
        {DATA_MODEL_MESSAGES.importWarning}
      </p>
      <p className={s.intro}>The {noun} data model of the client you choose replaces this client's, field for field.</p>
      <div className={ui.field}>
        <label htmlFor="import-app-code" className={ui.label}>
          Import from
        </label>
        <select
          id="import-app-code"
          name="import_app_code"
          defaultValue={posted?.code ?? ""}
          className={ui.input}
          required
          {...(posted?.error ? { "aria-invalid": true, "aria-describedby": errorId } : {})}
        >
          <option value="">Choose a client</option>
          {choices.map((choice) => (
            <option key={choice.code} value={choice.code}>
              {choice.name} ({choice.code})
            </option>
          ))}
        </select>
        {posted?.error ? (
          <p id={errorId} className={ui.fieldError}>
            {posted.error}
          </p>
        ) : null}
      </div>
      <div className={ui.toolbar}>
        <Link to={cancelTo} className={ui.button.secondary} preventScrollReset>
          Cancel
        </Link>
        <button type="submit" name="intent" value="import" className={ui.button.primary}>
          Import
        </button>
      </div>
    </Form>
  );
}
