import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False on the server and while hydrating, true once JavaScript runs in the browser (and at once
 * for anything mounted after hydration, so client-side navigations do not flash an enabled button).
 */
export function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
