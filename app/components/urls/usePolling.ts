import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { POLL_INTERVAL_MS } from "~/lib/urls";

/** With JavaScript, reloads the view every 2 s while `active` (a visible URL waits for the pipeline). */
export function usePolling(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [active, revalidator]);
}
