import { Form, Link } from "@remix-run/react";
import { LOGOUT_QUESTION } from "~/lib/messages";
import * as ui from "~/styles/ui.css";

/** The question and its two answers; shared by the dialog and the server-rendered page. */
export function LogoutConfirm({ onCancel }: { onCancel?: () => void }) {
  return (
    <Form method="post" action="/logout" reloadDocument>
      <p>{LOGOUT_QUESTION}</p>
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
