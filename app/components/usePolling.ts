import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { POLL_INTERVAL_MS } from "~/lib/urls";

/**
 * While work is pending (a sitemap being read, URLs or files being indexed, a run going on), asks
 * the page's loaders again every 2 s so statuses move on screen; stops as soon as nothing is
 * pending, and skips a beat while the tab is hidden or another load is under way. JavaScript only.
 */
export function usePolling(active: boolean) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const latest = useRef({ revalidate: revalidator.revalidate, idle: true });
  latest.current = {
    revalidate: revalidator.revalidate,
    idle: revalidator.state === "idle" && navigation.state === "idle",
  };
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (latest.current.idle && document.visibilityState !== "hidden") latest.current.revalidate();
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [active]);
}
