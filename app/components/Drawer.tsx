import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import * as ui from "~/styles/ui.css";
import * as s from "./Drawer.css";
import { useReturnFocusOnClose } from "./useReturnFocus";

/** Drawers open right now, innermost last: Escape closes only the one on top. */
const openDrawers: string[] = [];

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** What Tab can reach in the panel, in order: enabled controls that are shown. */
const focusableIn = (panel: HTMLElement) =>
  [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0);

/**
 * Tab and Shift+Tab go round the drawer's own controls: what lies under its backdrop cannot be
 * seen, and typing there would change the page behind it unseen. A dialog opened over the drawer
 * (a leave question) keeps its own keys.
 */
function keepTabInside(event: KeyboardEvent, panel: HTMLElement) {
  const target = event.target as HTMLElement;
  const inPanel = panel.contains(target);
  if (!inPanel && target.closest?.('[aria-modal="true"]')) return;
  const focusable = focusableIn(panel);
  const first = focusable[0] ?? panel;
  const last = focusable.at(-1) ?? panel;
  if (inPanel && (event.shiftKey ? target !== first && target !== panel : target !== last)) return;
  event.preventDefault();
  (event.shiftKey && inPanel ? last : first).focus();
}

/**
 * A side drawer rendered by a nested route over its parent page: its URL is addressable and
 * closing it is a link back to the parent (so it works without JavaScript). With JavaScript,
 * Escape and a click on the backdrop close it too, focus moves into it and Tab stays in it.
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
      if (openDrawers[openDrawers.length - 1] !== titleId) return;
      // An input method's Escape cancels the word being composed in a field of the drawer: it does not close it.
      if (event.key === "Escape" && !event.isComposing) navigate(closeTo, { preventScrollReset: true });
      if (event.key === "Tab" && panel.current) keepTabInside(event, panel.current);
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
