import { NOT_A_FORM_PAGE } from "~/lib/messages";

/**
 * What a data request (`?_data=`) the router itself refuses says. The router's refusals carry a
 * message for developers (naming route modules), which Remix replaces in production with
 * "Unexpected Server Error" under a 4xx status: a caller is told the wrong thing either way.
 */
const REFUSAL_BY_STATUS: Record<number, string> = {
  // A `_data` naming a route the address does not match.
  403: "That part is not on this page.",
  // A form posted to a page without an action.
  405: NOT_A_FORM_PAGE,
};
const OTHER_REFUSAL = "This request is not one the console answers.";

/** A refused data request's answer with a message that says what happened; any other answer as it is. */
export async function withRouterRefusalMessage(response: Response): Promise<Response> {
  if (response.headers.get("X-Remix-Error") !== "yes" || response.status < 400 || response.status >= 500) {
    return response;
  }
  const message = REFUSAL_BY_STATUS[response.status] ?? OTHER_REFUSAL;
  await response.body?.cancel();
  const headers = new Headers(response.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.delete("Content-Length");
  return new Response(JSON.stringify({ message }), { status: response.status, headers });
}
