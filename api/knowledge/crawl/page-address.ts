/** An address as a URL, or null when it is not one. */
export function parsedAddress(address: string) {
  try {
    return new URL(address.trim());
  } catch {
    return null;
  }
}

/**
 * A page's address as stored: scheme and host lower-cased, default port, fragment and tracking
 * parameters (`utm_source`, `gclid`) dropped. The
 * path's case, a trailing slash and the query name other pages, as servers treat them. Given
 * links ('+ Links') and sitemaps' entries are both stored this way, so one page is one URL.
 * A user name and password written into the address (`https://user:secret@host/page`) are dropped
 * too: addresses are stored, listed and shown, and '+ Links' refuses them, but a sitemap is
 * outside input and lists what its site wrote.
 */
export function pageAddress(address: string) {
  const url = parsedAddress(address);
  if (!url) return address.trim();
  url.hash = "";
  url.username = "";
  url.password = "";
  url.search = withoutTracking(url.search);
  return url.href;
}

/**
 * Query parameters that say how a visitor arrived (a campaign, an ad click), never which page:
 * `/fees?utm_source=mail` is `/fees`. Sitemaps and pasted links carry them.
 */
const TRACKING =
  /^(utm_[a-z_]+|gclid|gbraid|wbraid|dclid|fbclid|msclkid|yclid|igshid|mc_cid|mc_eid|_hsenc|_hsmi|_ga|_gl)$/i;

/** A query without its tracking parameters; the others stay as written, in their order. */
function withoutTracking(search: string) {
  if (!search) return search;
  const parts = search.slice(1).split("&");
  const nameOf = (part: string) => {
    const name = part.split("=")[0];
    try {
      return decodeURIComponent(name);
    } catch {
      return name;
    }
  };
  const kept = parts.filter((part) => !TRACKING.test(nameOf(part)));
  return kept.length === parts.length ? search : kept.length ? `?${kept.join("&")}` : "";
}
