import { useActionData } from "@remix-run/react";
import { useEffect, type RefObject } from "react";

/**
 * Marks a form's own message, the one that says why a save was refused: focus goes there when the
 * answer marks no field (say, the API refused the save as a whole).
 */
export const FORM_ERROR_ATTRIBUTE = "data-form-error";

/** Focuses the first field inside `container` marked invalid, or else its form's message, if either is there. */
export function focusFirstProblem(container: HTMLElement) {
  const target =
    container.querySelector<HTMLElement>('[aria-invalid="true"]') ??
    container.querySelector<HTMLElement>(`[${FORM_ERROR_ATTRIBUTE}]`);
  target?.focus();
}

/**
 * Each time this route's action answers, focus moves to the first field inside `container` the
 * answer marks invalid, or to the form's message when it marks none. The Save button that was
 * pressed is disabled while the save is on its way, so the browser had dropped focus to the page's
 * body: a keyboard or screen-reader user would start again from the top, not hearing what went
 * wrong. (conform does the same for the forms it runs.) An answer that marks nothing leaves focus
 * where it is.
 */
export function useFocusFirstProblemOnAnswer(container: RefObject<HTMLElement>) {
  const answer = useActionData();
  useEffect(() => {
    if (answer !== undefined && container.current) focusFirstProblem(container.current);
  }, [answer, container]);
}
