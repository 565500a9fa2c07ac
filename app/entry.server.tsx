/**
 * Remix's default server entry for Node, plus the CSP nonce: every inline script React and Remix
 * render carries the nonce the security headers announced for this response.
 */
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/lib/nonce";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  // Crawlers get the whole document at once; browsers get the shell first and the rest streamed.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // A render still waiting after this long is cut off. The timer goes when the render is done:
    // each pending one held a finished page's whole render in memory (at 150 pages a second, ~750
    // renders at once), which the collector kept promoting and sweeping.
    let abortRender = () => {};
    const abortTimer = setTimeout(() => abortRender(), ABORT_DELAY);
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html");
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (!waitForAll) ready();
        },
        onAllReady() {
          // The render is done: the timer would only keep the whole render's memory for 5 s.
          clearTimeout(abortTimer);
          if (waitForAll) ready();
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are already in the stream; log them rather than lose them.
          if (shellRendered) console.error(error);
        },
      },
    );
    abortRender = abort;
  });
}
