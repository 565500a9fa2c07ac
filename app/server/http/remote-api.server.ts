/**
 * How this server reaches a remote API host (API_URL): the console's own API calls, and the
 * browser's `/storage/*` requests passed on to it (stored files are linked with the API's paths).
 */

/** How long the API host has to answer, once the request (and its body) is sent. */
export const REMOTE_API_TIMEOUT_MS = 30_000;

/**
 * The request headers the API reads (api/: authorization, content-type, content-length; the
 * caller's address from X-Forwarded-For when its TRUST_PROXY names this server, api/http/throttle.ts),
 * and the few that say who asks in its logs. Everything else stays here: hop-by-hop headers belong
 * to this connection (Node's fetch refuses `transfer-encoding` and `expect` outright), and the
 * browser's cookies are the console's session, which the API never reads.
 */
const FORWARDED_HEADERS = [
  "accept",
  "accept-language",
  "authorization",
  "content-length",
  "content-type",
  "user-agent",
  "x-forwarded-for",
];

function forwardedHeaders(from: Headers) {
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = from.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}

/** The API host's address for a request's path and query (the console names its calls `http://api.internal/…`). */
function remoteUrl(base: URL, request: Request) {
  const { pathname, search } = new URL(request.url);
  return new URL(`${base.pathname.replace(/\/$/, "")}${pathname}${search}`, base);
}

/**
 * The console's own API calls, sent to the API host. Their bodies are the console's own (JSON, or
 * a form it already read under its limits). A call with no answer throws, as before: the API
 * client maps that to its pages' "not answering just now" where it can (client.server.ts).
 */
export function remoteApiFetch(apiUrl: string) {
  const base = new URL(apiUrl);
  return (request: Request) =>
    fetch(remoteUrl(base, request), {
      method: request.method,
      headers: forwardedHeaders(request.headers),
      body: request.body,
      duplex: "half",
      signal: AbortSignal.timeout(REMOTE_API_TIMEOUT_MS),
    });
}

const answer = (status: number, message: string) => Response.json({ message }, { status });
const tooLarge = (maxBytes: number) =>
  // The API's own words for an upload over its cap (api/downloads/routes.ts).
  answer(413, `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);

/**
 * The browser's `/storage/*` requests (signed downloads and uploads, public logos) passed on to the
 * API host. The body streams through as it comes, never held here, and is cut at `maxBodyBytes`
 * (the API's own pattern, readCapped in api/downloads/routes.ts): a Content-Length over it is
 * refused before anything is sent, and a body without one is stopped once it passes it. Every
 * failure is answered in words: 413 for a body over the cap, 504 when the API host does not answer
 * in time, 502 when it cannot be reached.
 */
export function remoteStoragePassThrough(apiUrl: string, maxBodyBytes: number, timeoutMs = REMOTE_API_TIMEOUT_MS) {
  const base = new URL(apiUrl);
  return async (request: Request, clientAddress: string | null): Promise<Response> => {
    if (Number(request.headers.get("content-length") ?? 0) > maxBodyBytes) return tooLarge(maxBodyBytes);

    const headers = forwardedHeaders(request.headers);
    // The address this server established (Express's req.ip, by TRUST_PROXY), never one the browser wrote.
    headers.delete("x-forwarded-for");
    if (clientAddress) headers.set("x-forwarded-for", clientAddress);
    // The answer goes to the browser as it came: Node's fetch would undo a compression its headers still name.
    headers.set("accept-encoding", "identity");

    // The API host has `timeoutMs` for each step: taking the next piece of the body, then answering
    // once it has all of it. A large upload on a slow line takes its own time as long as it moves
    // (Node's requestTimeout bounds the browser's side), a host that stops reading it or never
    // answers is given up on, and a download streams on once answered.
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let answered = false;
    let timedOut = false;
    const restartClock = () => {
      clearTimeout(timer);
      if (answered) return;
      timer = setTimeout(() => {
        timedOut = true;
        deadline.abort();
      }, timeoutMs);
    };

    let sent = 0;
    let overCap = false;
    const body = request.body?.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          restartClock();
          sent += chunk.byteLength;
          if (sent <= maxBodyBytes) return controller.enqueue(chunk);
          overCap = true;
          controller.error(new Error("The request body passed its cap"));
        },
        flush: restartClock,
      }),
    );
    restartClock();

    try {
      return await fetch(remoteUrl(base, request), {
        method: request.method,
        headers,
        body,
        duplex: "half",
        // A browser that goes away stops the call too.
        signal: AbortSignal.any([request.signal, deadline.signal]),
      });
    } catch (error) {
      if (overCap) return tooLarge(maxBodyBytes);
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      console.warn(
        `[console] the API host did not answer ${request.method} ${new URL(request.url).pathname}:`,
        String(cause),
      );
      if (timedOut) return answer(504, "The API host did not answer in time; try again in a moment.");
      return answer(502, "The API host cannot be reached just now; try again in a moment.");
    } finally {
      answered = true;
      clearTimeout(timer);
    }
  };
}
