import { useBeforeUnload, useBlocker } from "@remix-run/react";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  type ReactNode,
  type RefObject,
} from "react";

/**
 * Marks a link or form whose navigation keeps the page and its edits (a question asked on the same
 * page, like Appearance's Push to production): following it is not leaving.
 */
export const KEEPS_EDITS = { "data-keeps-edits": "" } as const;

/** What the browser asks before a screen with unsaved edits is left. */
export const LEAVE_WITH_UNSAVED_CHANGES = "You have unsaved changes. Leave this page and lose them?";

interface Guard {
  /**
   * What holds the page now, by who registered it: unsaved edits (null: ask before leaving), or
   * work that must finish first (what to do instead of leaving, e.g. say why in a toast).
   */
  holds: Map<string, (() => void) | null>;
  /** A form is being submitted right now: the navigation it starts is not leaving it. */
  submitting: { current: boolean };
}

const GuardContext = createContext<Guard | null>(null);

/**
 * The navigation this event starts is not leaving. Remix starts it (and asks the blocker) before
 * the event is over; an event that starts none (a submit the form's own checks stop) leaves no
 * mark behind, as it goes with the event.
 */
function markSubmitting(guard: Guard) {
  guard.submitting.current = true;
  setTimeout(() => (guard.submitting.current = false));
}

/**
 * The spec's dirty flag, kept: while any form on the page has unsaved edits, following a link,
 * changing the trigger point, closing a drawer (Escape, its backdrop, Close) or going back asks
 * first, and closing or reloading the tab gets the browser's own question. One blocker for the
 * whole console (the router consults only one), fed by every save bar (useUnsavedChanges) and by
 * uploads under way (useLeaveBlock). A form's own submit is not leaving it.
 */
export function LeaveGuard({ children }: { children: ReactNode }) {
  const guard = useRef<Guard>({ holds: new Map(), submitting: { current: false } }).current;
  useEffect(() => {
    // Before the link's or form's own handler (capture), which asks the blocker at once.
    const onActivate = (event: Event) => {
      if (event.target instanceof Element && event.target.closest("[data-keeps-edits]")) markSubmitting(guard);
    };
    document.addEventListener("click", onActivate, true);
    document.addEventListener("submit", onActivate, true);
    return () => {
      document.removeEventListener("click", onActivate, true);
      document.removeEventListener("submit", onActivate, true);
    };
  }, [guard]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      guard.holds.size > 0 &&
      !guard.submitting.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    const instead = [...guard.holds.values()].find((hold) => hold !== null);
    if (instead) {
      blocker.reset();
      instead();
    } else if (window.confirm(LEAVE_WITH_UNSAVED_CHANGES)) blocker.proceed();
    else blocker.reset();
  }, [blocker, guard]);

  useBeforeUnload(
    useCallback(
      (event) => {
        if (guard.holds.size === 0) return;
        event.preventDefault();
        event.returnValue = "";
      },
      [guard],
    ),
  );
  return <GuardContext.Provider value={guard}>{children}</GuardContext.Provider>;
}

/** Holds the page while `active`: leaving asks first, or runs `instead` and stays. */
export function useLeaveBlock(active: boolean, instead: (() => void) | null = null) {
  const guard = useContext(GuardContext);
  const id = useId();
  useEffect(() => {
    if (!guard || !active) return;
    guard.holds.set(id, instead);
    return () => {
      guard.holds.delete(id);
    };
  }, [guard, active, instead, id]);
  return guard;
}

/**
 * A form's unsaved edits hold the page (LeaveGuard); `inForm` is an element inside the form,
 * whose submits (Save, and the form's other buttons) are not leaving it.
 */
export function useUnsavedChanges(dirty: boolean, inForm: RefObject<HTMLElement | null>) {
  const guard = useLeaveBlock(dirty);
  useEffect(() => {
    const form = inForm.current?.closest("form");
    if (!guard || !form) return;
    // A listener on the form itself runs before Remix's own submit handler, which starts the
    // navigation (and asks the blocker) before the event is over.
    const onSubmit = () => markSubmitting(guard);
    form.addEventListener("submit", onSubmit);
    return () => form.removeEventListener("submit", onSubmit);
  }, [guard, inForm]);
}
