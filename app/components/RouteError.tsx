import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { SOMETHING_WENT_WRONG } from "~/lib/messages";
import { NotFound } from "./NotFound";

/** A route's error: 404 as the spec's not-found page, 403 as a plain refusal, anything else as the catch-all text. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    return <p role="alert">You do not have permission to see this page.</p>;
  }
  return <p role="alert">{SOMETHING_WENT_WRONG}</p>;
}
