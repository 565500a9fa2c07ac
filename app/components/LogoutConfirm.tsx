import { Form, Link } from "@remix-run/react";
import { LOGOUT_QUESTION } from "~/lib/messages";
import * as ui from "~/styles/ui.css";

/**
 * The question and its two answers; shared by the dialog and the server-rendered page. `questionId`
 * lets the dialog name the question as its description.
 */
export function LogoutConfirm({ onCancel, questionId }: { onCancel?: () => void; questionId?: string }) {
  return (
    <Form method="post" action="/logout" reloadDocument>
      <p id={questionId}>{LOGOUT_QUESTION}</p>
      <div className={ui.toolbar}>
        {onCancel ? (
          <button type="button" className={ui.button.secondary} onClick={onCancel}>
            No
          </button>
        ) : (
          <Link to="/" className={ui.button.secondary}>
            No
          </Link>
        )}
        <button type="submit" className={ui.button.primary}>
          Yes
        </button>
      </div>
    </Form>
  );
}
