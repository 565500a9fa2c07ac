import { useEffect, useRef } from "react";

/**
 * When the control someone was on is drawn anew as another element (a button that becomes a link
 * once its form is done, a link whose confirmation opens in its place, or back), the browser drops
 * focus to the page's body and a keyboard or screen-reader user starts again from the top. Each time
 * `shape` changes after the first render, and only when focus fell nowhere and `enabled` says this is
 * the control that was used, focus goes to the element `id`.
 */
export function useFocusOnSwap(id: string, shape: unknown, enabled = true) {
  const drawn = useRef(false);
  useEffect(() => {
    if (!drawn.current) {
      drawn.current = true;
      return;
    }
    if (!enabled) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    document.getElementById(id)?.focus();
    // `enabled` is read as it was when the shape changed, not a dependency of its own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape, id]);
}
