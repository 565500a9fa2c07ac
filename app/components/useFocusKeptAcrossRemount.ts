import { useCallback, useRef } from "react";

/** The page whose Save had the keyboard when its form was replaced (useFocusKeptAcrossRemount). */
let focusedSaveOf: string | null = null;

/**
 * Keeps the keyboard on Save when a successful save replaces the form with a fresh one (screens
 * key their forms by the page they arrived at, so that they start clean): the old button, focused,
 * notes it as it goes, and the new one takes the focus as it comes. React detaches the old
 * button's ref before it takes the old form out of the page, and attaches the new one's after,
 * in the same commit.
 */
export function useFocusKeptAcrossRemount() {
  const button = useRef<HTMLButtonElement | null>(null);
  return useCallback((node: HTMLButtonElement | null) => {
    const page = window.location.pathname;
    if (node && focusedSaveOf === page) node.focus();
    else if (!node && button.current === document.activeElement) {
      focusedSaveOf = page;
      // Only for a Save of the same commit: a later page must not take the keyboard for it.
      queueMicrotask(() => (focusedSaveOf = null));
    }
    if (node) focusedSaveOf = null;
    button.current = node;
  }, []);
}
