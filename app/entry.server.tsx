/**
 * Remix's default server entry for Node, plus the CSP nonce: every inline script React and Remix
 * render carries the nonce the security headers announced for this response.
 */
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/lib/nonce";
import { keepRefusalHeaders } from "~/server/http/error-headers.server";
import { interruptionOf, postToOfferAgain, resendPage, unsavedPostAnswer } from "~/server/http/resend-page.server";
import { withRouterRefusalMessage } from "~/server/http/router-refusals.server";
import { noteLoadersDone } from "~/server/http/server-timing.server";
import { pageCollector } from "~/server/rendered-html.server";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  noteLoadersDone(loadContext);
  // A post the API could not take, whose page cannot be drawn either: its fields to send again.
  const interrupted = postToOfferAgain(request, responseStatusCode, remixContext, loadContext);
  if (interrupted) {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    const { status, message } = interruptionOf(loadContext);
    return new Response(resendPage(interrupted, message), { status, headers: responseHeaders });
  }
  keepRefusalHeaders(responseStatusCode, responseHeaders, remixContext);
  const nonce = loadContext.cspNonce ?? "";
  return new Promise<Response>((resolve, reject) => {
    // A render still waiting after this long is cut off. The timer goes when the render is done:
    // each pending one held a finished page's whole render in memory (at 150 pages a second, ~750
    // renders at once), which the collector kept promoting and sweeping.
    let abortRender = () => {};
    let shellRendered = false;
    const abortTimer = setTimeout(() => abortRender(), ABORT_DELAY);
    // Every page is sent whole, in one piece. No loader defers data, so a page is all ready as soon
    // as its shell is; streaming it sent ~2 KB pieces through three streams and the compressor,
    // one hop each, for nothing the browser could use earlier (docs/decisions/019-fast-pages.md).
    const sendWhole = () =>
      pipe(
        pageCollector((page) => {
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(page, { headers: responseHeaders, status: responseStatusCode }));
        }),
      );
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          // The render is done: the timer would only keep the whole render's memory for 5 s.
          clearTimeout(abortTimer);
          sendWhole();
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // A shell's error reaches Remix (which logs it) through onShellError; later ones only here.
          if (shellRendered) console.error(error);
        },
      },
    );
    abortRender = () => {
      abort();
    };
  });
}

/**
 * A loader's or action's answer to a client-side navigation or fetcher: its loaders are done, a
 * post the API could not take answers 503, and a request the router refused says why.
 */
export function handleDataRequest(response: Response, { request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  noteLoadersDone(context);
  return withRouterRefusalMessage(unsavedPostAnswer(response, request, context));
}

/**
 * What Remix reports of a request that failed, logged as Remix would log it, except a refusal of the
 * router's own under a 4xx (a form posted to a page without an action, a data request for a route
 * the address does not match): that is the caller's mistake, answered with its status and a message,
 * and logging it with its stack read as if the server had failed. Aborted requests are not logged.
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status >= 400 && error.status < 500) return;
  // A router error's own Error (its `error`) holds the stack; anything else is logged as it is.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  console.error(inner ?? error);
}
