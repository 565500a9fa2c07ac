import { Dialog } from "./Dialog";
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import * as s from "~/styles/shell.css";
import * as ui from "~/styles/ui.css";
import { LOGOUT_QUESTION } from "~/lib/messages";


/** Asks before logging out: a dialog with JavaScript, the server's confirm page (/logout) without. */
export function LogoutButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Link
        to="/logout"
        className={s.menuItem}
        onClick={(event) => {
          event.preventDefault();
          // The profile menu closes behind the dialog, as it would after any other choice.
          event.currentTarget.closest("details")?.removeAttribute("open");
          setOpen(true);
        }}
      >
        Logout
      </Link>
      {open ? (
        <Dialog aria-labelledby="logout-dialog-title" onDismiss={() => setOpen(false)}>
          <h2 id="logout-dialog-title">Logout</h2>
          <LogoutConfirm onCancel={() => setOpen(false)} />
        </Dialog>
      ) : null}
    </>
  );
}

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
