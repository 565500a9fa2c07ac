import { useLocation, useNavigationType } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * A search box whose results follow the typing (each search replaces the address) shows what the
 * address says once the address changes under it: Back and Forward always, even with the box still
 * focused from the search before; anything else only when the box is not being typed in.
 * Filter forms that only change on submit are keyed by the address instead (`key={search}`). A
 * select that applies itself follows the address the same way, rather than being keyed by it: a
 * new element would drop the keyboard's focus after each choice.
 */
export function useFieldFollowsAddress<Field extends HTMLInputElement | HTMLSelectElement>(value: string) {
  const field = useRef<Field>(null);
  const navigationType = useNavigationType();
  const { key } = useLocation();
  useEffect(() => {
    const box = field.current;
    if (box && (navigationType === "POP" || document.activeElement !== box)) box.value = value;
  }, [value, key, navigationType]);
  return field;
}
