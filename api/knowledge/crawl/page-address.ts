/** An address as a URL, or null when it is not one. */
export function parsedAddress(address: string) {
  try {
    return new URL(address.trim());
  } catch {
    return null;
  }
}

/**
 * A page's address as stored: scheme and host lower-cased, default port and fragment dropped. The
 * path's case, a trailing slash and the query name other pages, as servers treat them. Given
 * links ('+ Links') and sitemaps' entries are both stored this way, so one page is one URL.
 */
export function pageAddress(address: string) {
  const url = parsedAddress(address);
  if (!url) return address.trim();
  url.hash = "";
  return url.href;
}
