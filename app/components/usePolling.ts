import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, type MutableRefObject } from "react";
import { POLL_INTERVAL_MS } from "~/lib/urls";

type Waiting = MutableRefObject<{ revalidate: () => void; idle: boolean }>;

/**
 * The parts of the page waiting for work, and the one timer they share. A beat asks once for the
 * whole page (a revalidation runs every loader that needs it), so a drawer and the list behind it,
 * both waiting, do not each ask every 2 s.
 */
const waiting = new Set<Waiting>();
let timer: ReturnType<typeof setInterval> | null = null;

function beat() {
  if (document.visibilityState === "hidden") return;
  const parts = [...waiting];
  if (parts.length && parts.every((part) => part.current.idle)) parts[0].current.revalidate();
}

/**
 * While work is pending (a sitemap being read, URLs or files being indexed, a run going on), asks
 * the page's loaders again every 2 s so statuses move on screen; stops as soon as nothing is
 * pending, and skips a beat while the tab is hidden or another load is under way. JavaScript only.
 */
export function usePolling(active: boolean) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const latest: Waiting = useRef({ revalidate: revalidator.revalidate, idle: true });
  latest.current = {
    revalidate: revalidator.revalidate,
    idle: revalidator.state === "idle" && navigation.state === "idle",
  };
  useEffect(() => {
    if (!active) return;
    waiting.add(latest);
    timer ??= setInterval(beat, POLL_INTERVAL_MS);
    return () => {
      waiting.delete(latest);
      if (waiting.size === 0 && timer !== null) {
        clearInterval(timer);
        timer = null;
      }
    };
  }, [active, latest]);
}
