import { useNavigate, useLocation } from "@remix-run/react";
import { useCallback, type AnchorHTMLAttributes, type MouseEvent } from "react";

/**
 * The shell's links (top bar, navigation, breadcrumbs: ~40 a page) as plain anchors whose clicks
 * one handler turns into in-app navigations. React Router's <Link> resolves its path against the
 * route matches each time it renders, ~6 µs a link on the server against ~1 µs for an anchor
 * (docs/decisions/019-fast-pages.md); the shell's addresses are absolute already.
 *
 * `data-discover` is what Remix's own links carry: it lets lazy route discovery learn the
 * target's routes before the click, and it marks the anchor for `useInAppLinkClicks`.
 */
export function InAppLink({ to, ...anchor }: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string }) {
  return <a href={to} data-discover="true" {...anchor} />;
}

/** Whether a click is one the browser would follow in this tab (no modifier, main button). */
function isPlainClick(event: MouseEvent) {
  return (
    !event.defaultPrevented && event.button === 0 && !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

/**
 * A click handler for an element holding InAppLinks: a plain click on one of them navigates in
 * the app (as <Link> does: to the same address it replaces the history entry). Other clicks, and
 * anchors with a target, are left to the browser; a <Link>'s own click (Remix's links carry
 * `data-discover` too) has already been handled, its default prevented, when it bubbles here.
 */
export function useInAppLinkClicks() {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const here = `${pathname}${search}${hash}`;
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      const anchor = isPlainClick(event) ? (event.target as Element).closest("a[data-discover]") : null;
      const target = anchor?.getAttribute("target");
      if (!anchor || (target && target !== "_self")) return;
      const to = anchor.getAttribute("href") ?? "";
      // Only the app's own absolute paths; anything else is the browser's to follow.
      if (!to.startsWith("/") || to.startsWith("//")) return;
      event.preventDefault();
      navigate(to, { replace: to === here });
    },
    [navigate, here],
  );
}
