import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import * as ui from "~/styles/ui.css";
import * as s from "./Drawer.css";
import { useReturnFocusOnClose } from "./useReturnFocus";

/** Drawers open right now, innermost last: Escape closes only the one on top. */
const openDrawers: string[] = [];

/**
 * A side drawer rendered by a nested route over its parent page: its URL is addressable and
 * closing it is a link back to the parent (so it works without JavaScript). With JavaScript,
 * Escape and a click on the backdrop close it too, and focus moves into it.
 */
export function Drawer({
  title,
  size,
  closeTo,
  children,
}: {
  title: ReactNode;
  size: "wide" | "medium" | "full";
  closeTo: string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const panel = useRef<HTMLElement>(null);
  const titleId = useId();
  // Before the effect below moves focus into the drawer: it notes what had focus.
  useReturnFocusOnClose();
  useEffect(() => {
    panel.current?.focus();
    openDrawers.push(titleId);
    const onKey = (event: KeyboardEvent) => {
      // An input method's Escape cancels the word being composed in a field of the drawer: it does not close it.
      if (event.key === "Escape" && !event.isComposing && openDrawers[openDrawers.length - 1] === titleId)
        navigate(closeTo, { preventScrollReset: true });
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      openDrawers.splice(openDrawers.indexOf(titleId), 1);
    };
  }, [closeTo, navigate, titleId]);
  return (
    <>
      <div className={s.backdrop} onClick={() => navigate(closeTo, { preventScrollReset: true })} aria-hidden="true" />
      <section
        ref={panel}
        className={s.panel[size]}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <header className={s.header}>
          <h2 id={titleId}>{title}</h2>
          <Link to={closeTo} preventScrollReset className={ui.button.secondary} aria-label="Close">
            Close
          </Link>
        </header>
        <div className={s.body}>{children}</div>
      </section>
    </>
  );
}
