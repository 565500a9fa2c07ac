import { useCallback, useEffect, useRef } from "react";

/**
 * A debounced version of `callback`: it runs `delayMs` after the last call (the spec's search
 * helper waits 300 ms). The latest callback is used; a pending call is dropped on unmount, and by
 * the function's `cancel` (a search submitted at once needs no second one later, which would
 * otherwise land after a Back and take the address forward again).
 */
export function useDebounced<Args extends unknown[]>(callback: (...args: Args) => void, delayMs = 300) {
  const latest = useRef(callback);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    latest.current = callback;
  }, [callback]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const debounced = useCallback(
    (...args: Args) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => latest.current(...args), delayMs);
    },
    [delayMs],
  );
  return Object.assign(debounced, { cancel: () => clearTimeout(timer.current) });
}
