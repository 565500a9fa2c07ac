import type { MouseEvent } from "react";

/**
 * A button's props while its form is on its way: held (aria-disabled, a click refused) rather than
 * disabled. A disabled button drops the keyboard focus to the page's body, so after each post the
 * keyboard user would start again from the top; a held one keeps the focus.
 */
export function heldWhile(busy: boolean) {
  return busy
    ? {
        "aria-disabled": true as const,
        "aria-busy": true as const,
        onClick: (event: MouseEvent) => event.preventDefault(),
      }
    : {};
}
