/** What would make a decoded address read as another: controls, invisible and direction marks, spaces. */
const HIDES_WHAT_IT_SAYS = /[\p{Cc}\p{Cf}\p{Z}]/u;

/**
 * A page's address as a person reads it: `/es/admisión` rather than `/es/admisi%C3%B3n`, as a
 * browser's address bar shows it. Only what is shown; links and exports keep the address as it
 * is. An address that would decode to characters that change how it reads (controls, direction
 * marks, invisible ones, spaces) or that does not decode is shown encoded, so that nothing can pass
 * for another address.
 */
export function readableAddress(url: string) {
  let decoded: string;
  try {
    decoded = decodeURI(url);
  } catch {
    return url;
  }
  return HIDES_WHAT_IT_SAYS.test(decoded) ? url : decoded;
}
