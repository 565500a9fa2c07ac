import type { ErrorRequestHandler } from "express";
import { SOMETHING_WENT_WRONG } from "../../lib/messages";

/** What an address the router cannot decode (a broken percent escape, a lone `%`) is told: the API's words for it. */
export const UNREADABLE_ADDRESS = "The address contains characters that are not allowed";

/** Any other refusal of the framework's: a request no page of the console answers. */
const OTHER_REFUSAL = "This request is not one the console answers.";

/**
 * The last word on an error the web framework itself met before a page could answer: an address
 * whose escapes do not decode, or a failure of a handler. Express's own page for it shows the
 * stack and the server's file paths whenever NODE_ENV is not production; this one says in plain
 * words what happened, with a 4xx for the caller's mistakes, and logs only the server's own.
 */
export function answerRouterErrorsInWords(): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const declared = (error ?? {}) as { status?: unknown; statusCode?: unknown };
    const status = Number(declared.status ?? declared.statusCode);
    if (error instanceof URIError) {
      res.status(400).type("text/plain").send(UNREADABLE_ADDRESS);
    } else if (status >= 400 && status < 500) {
      res.status(status).type("text/plain").send(OTHER_REFUSAL);
    } else {
      console.error(error);
      res.status(500).type("text/plain").send(SOMETHING_WENT_WRONG);
    }
  };
}
