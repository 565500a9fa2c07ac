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
  return url.href;
}
