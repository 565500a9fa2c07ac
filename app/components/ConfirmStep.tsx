import { Form, Link } from "@remix-run/react";
import { useRef, type ReactNode } from "react";
import { useFocusOnShow } from "./useFocusOnShow";
import * as ui from "~/styles/ui.css";
import * as s from "./ConfirmStep.css";

/**
 * The question before something goes for good, rendered by the server from the address
 * (`?delete=<id>` and the like) so that it works without JavaScript: the question, the button that
 * confirms (a post with `intent`) and a link back that cancels. It takes the focus as it opens, so
 * that it is read out and brought into view when it opens below a long table's top.
 */
export function ConfirmStep({
  label,
  question,
  confirm,
  intent,
  cancelTo,
  focusKey,
  className = s.confirm,
  questionClassName = s.confirmText,
  children,
}: {
  /** The form's name for assistive technology ("Delete file"). */
  label: string;
  question: ReactNode;
  /** The confirming button's words. */
  confirm: string;
  intent: string;
  cancelTo: string;
  /** What is asked about: the focus moves again when the question turns to another thing. */
  focusKey: string | number;
  /** The frame's and the question's styles, where a screen frames it its own way. */
  className?: string;
  questionClassName?: string;
  /** The hidden fields that say what the post is about. */
  children?: ReactNode;
}) {
  const box = useRef<HTMLFormElement>(null);
  useFocusOnShow(box, focusKey);
  return (
    <Form method="post" ref={box} tabIndex={-1} className={className} aria-label={label} preventScrollReset>
      {children}
      <p role="alert" className={questionClassName}>
        {question}
      </p>
      <div className={ui.toolbar}>
        <Link to={cancelTo} className={ui.button.secondary} preventScrollReset>
          Cancel
        </Link>
        <button type="submit" name="intent" value={intent} className={ui.button.danger}>
          {confirm}
        </button>
      </div>
    </Form>
  );
}
