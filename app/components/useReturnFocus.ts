import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** An address with its search params in one order, so two links to the same drawer compare equal. */
function comparable(url: URL) {
  const params = new URLSearchParams(url.search);
  // Remix marks posts to index routes with `?index`; it is never part of a page's address.
  params.delete("index");
  params.sort();
  return `${url.pathname}?${params}`;
}

/** A link on the page to `address` (the card or button that opens a drawer by address), if any. */
function linkTo(address: string) {
  const wanted = comparable(new URL(address, window.location.href));
  for (const link of document.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    if (link.origin === window.location.origin && comparable(new URL(link.href)) === wanted) return link;
  }
  return null;
}

/** Focuses the first candidate that can take focus (one inside a closed menu cannot); says whether one did. */
function focusFirstOf(candidates: (Element | null)[]) {
  for (const candidate of candidates) {
    if (!(candidate instanceof HTMLElement) || !candidate.isConnected || candidate === document.body) continue;
    candidate.focus();
    if (document.activeElement === candidate) return true;
  }
  return false;
}

/**
 * When the panel calling this (a drawer) closes, focus goes back to what opened it, so a keyboard
 * or screen-reader user carries on from there instead of from the top of the page. The opener is
 * what had focus as the panel opened; a drawer opened by address (a link, a reload, a shared URL)
 * may have had none, or its opener may have been drawn anew, so the link on the page to the
 * address the panel opened at stands in for it. Focus is given back only when the close left it
 * nowhere (it was inside the panel): a close that took the user to another page or control keeps
 * their focus there.
 *
 * Call it before the panel's own effect that moves focus into it, so the opener is noted first.
 */
export function useReturnFocusOnClose() {
  const { pathname, search } = useLocation();
  const openedAt = useRef(`${pathname}${search}`);
  useEffect(() => {
    const opener = document.activeElement;
    const address = openedAt.current;
    return () => {
      if (document.activeElement && document.activeElement !== document.body) return;
      focusFirstOf([opener, linkTo(address)]);
    };
  }, []);
}
