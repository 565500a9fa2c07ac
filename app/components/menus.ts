import type { KeyboardEvent } from "react";

/**
 * Closes the `<details>` menu that `item` is in and gives its summary the focus. An entry that was
 * chosen goes out of sight with the menu (and can hold focus no longer), so a dialog or drawer it
 * opens notes the summary as its opener and gives focus back there when it closes.
 */
export function closeMenuOf(item: Element) {
  const menu = item.closest("details");
  if (!menu) return;
  menu.open = false;
  menu.querySelector("summary")?.focus();
}

/**
 * A `<details>` menu's onKeyDown: Escape closes it, as it closes the console's drawers and dialogs,
 * leaving focus on its summary. Only the menu: a drawer it was opened over stays open.
 */
export function closeMenuOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
  if (event.key !== "Escape" || event.nativeEvent.isComposing || !event.currentTarget.open) return;
  event.stopPropagation();
  closeMenuOf(event.currentTarget);
}
