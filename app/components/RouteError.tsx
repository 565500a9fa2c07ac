import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { cutText } from "@contract/text";
import { NOT_A_FORM_PAGE, NOT_YOURS_TO_CHANGE, saysNotSavedJustNow, SOMETHING_WENT_WRONG } from "~/lib/messages";
import { NotFound } from "./NotFound";
import { lastPostSent, UnsentPost } from "./UnsentPost";

/**
 * What a refused request says: the message of a 4xx answer (a form no screen could send, an API
 * refusal no route handled) or of a 503 (the API could not reach its data: try again in a few
 * seconds), or the catch-all text for anything else.
 */
export function errorMessageOf(error: unknown): string {
  if (!isRouteErrorResponse(error) || error.status < 400 || (error.status >= 500 && error.status !== 503))
    return SOMETHING_WENT_WRONG;
  // The router's own refusals (a form posted to a page that takes none) carry a message for
  // developers that names the route's module: never shown.
  if ((error as { internal?: boolean }).internal) return error.status === 405 ? NOT_A_FORM_PAGE : SOMETHING_WENT_WRONG;
  const data: unknown = error.data;
  const message = typeof data === "string" ? data : (data as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.trim() ? cutText(message, 500) : SOMETHING_WENT_WRONG;
}

/** A route's error: 404 as the spec's not-found page, 403 as a plain refusal, a 4xx with its message, anything else as the catch-all text. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    // A read-only user's refused change is not a page they may not see.
    const change = errorMessageOf(error) === NOT_YOURS_TO_CHANGE;
    return <p role="alert">{change ? NOT_YOURS_TO_CHANGE : "You do not have permission to see this page."}</p>;
  }
  return <ErrorMessage error={error} />;
}

/** An error's message; after a post the API could not take, nor give the page its data after, with what was typed to send again. */
export function ErrorMessage({ error }: { error: unknown }) {
  const message = errorMessageOf(error);
  const post = saysNotSavedJustNow(message) ? lastPostSent() : null;
  return post ? <UnsentPost resend={post} message={message} takeFocus /> : <p role="alert">{message}</p>;
}
