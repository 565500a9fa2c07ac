import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import * as ui from "~/styles/ui.css";

/**
 * Tells screen readers that another page opened. With JavaScript, Remix swaps the page without a
 * load, which a screen reader does not notice (a full load it announces by the page's title), so
 * after each change of path the new title is read out through a live region. A change of the query
 * alone (filters, paging, polling) is left unsaid: the reader is still on the same page.
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const [title, setTitle] = useState("");
  const announcedPath = useRef(pathname);
  useEffect(() => {
    if (pathname === announcedPath.current) return;
    announcedPath.current = pathname;
    // <Meta> has put the new <title> in this same commit; read it once the frame is painted.
    const frame = requestAnimationFrame(() => setTitle(document.title));
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
  return (
    <p aria-live="assertive" aria-atomic="true" className={ui.visuallyHidden} data-testid="route-announcer">
      {title}
    </p>
  );
}
