import { Link } from "@remix-run/react";
import { lazy, Suspense, useState } from "react";
import * as s from "~/styles/shell.css";
import { closeMenuOf } from "./menus";

/**
 * The dialog, fetched the first time Logout is chosen: the button is on every page (in the
 * root's shell), the dialog is wanted on few of them.
 */
const LogoutDialog = lazy(() => import("./LogoutDialog"));

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
          // The profile menu closes behind the dialog, as it would after any other choice; the
          // dialog gives focus back to the menu's summary.
          closeMenuOf(event.currentTarget);
          setOpen(true);
        }}
      >
        Logout
      </Link>
      {open ? (
        <Suspense fallback={null}>
          <LogoutDialog onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
