import type { Hono } from "hono";

/**
 * The methods the API answers on a path, read from its registered routes (middleware, registered
 * for every method, is left out). A request with another method on a known path is answered 405
 * with `Allow` (RFC 9110, 15.5.6) rather than 404: the path exists, the method is what is wrong.
 */
export function allowedMethodsOf(app: Hono, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    if (patternMatches(route.path, path)) methods.add(route.method);
  }
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

/** Hono's path patterns as the API writes them: literal segments, `:name` and a trailing `*`. */
function patternMatches(pattern: string, path: string) {
  const wanted = pattern.split("/");
  const given = path.split("/");
  for (const [index, segment] of wanted.entries()) {
    if (segment === "*") return index === wanted.length - 1 && given.length >= index;
    if (index >= given.length) return false;
    if (segment.startsWith(":")) {
      if (!given[index]) return false;
    } else if (segment !== given[index]) return false;
  }
  return wanted.length === given.length;
}
