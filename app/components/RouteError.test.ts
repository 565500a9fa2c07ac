import { describe, expect, it } from "vitest";
import { NOT_A_FORM_PAGE, NOT_SHOWN_JUST_NOW, SOMETHING_WENT_WRONG } from "~/lib/messages";
import { errorMessageOf } from "./RouteError";

/** An error answer as the router makes one (what `isRouteErrorResponse` recognises). */
class ErrorResponse {
  readonly data: unknown;
  constructor(
    readonly status: number,
    readonly statusText: string,
    data: unknown,
    readonly internal = false,
  ) {
    this.data = data instanceof Error ? data.toString() : data;
  }
}

describe("errorMessageOf", () => {
  it("says a refusal's own message", () => {
    expect(errorMessageOf(new ErrorResponse(400, "Bad Request", "This form could not be read."))).toBe(
      "This form could not be read.",
    );
    expect(errorMessageOf(new ErrorResponse(409, "Conflict", { message: "Changed elsewhere" }))).toBe(
      "Changed elsewhere",
    );
  });

  it("never shows the router's message for developers, which names the route's module", () => {
    const noAction = new ErrorResponse(
      405,
      "Method Not Allowed",
      new Error(
        'You made a POST request to "/northfield/conversations" but did not provide an `action` for route "routes/$appName.conversations", so there is no way to handle the request.',
      ),
      true,
    );
    expect(errorMessageOf(noAction)).toBe(NOT_A_FORM_PAGE);
    expect(errorMessageOf(new ErrorResponse(400, "Bad Request", new Error("routes/x"), true))).toBe(
      SOMETHING_WENT_WRONG,
    );
  });

  it("says a 503's own message: the API could not reach its data, to try again shortly", () => {
    expect(errorMessageOf(new ErrorResponse(503, "Service Unavailable", NOT_SHOWN_JUST_NOW))).toBe(NOT_SHOWN_JUST_NOW);
    expect(errorMessageOf(new ErrorResponse(502, "Bad Gateway", "boom"))).toBe(SOMETHING_WENT_WRONG);
  });

  it("says the catch-all text for anything that is not a 4xx", () => {
    expect(errorMessageOf(new Error("at /srv/app/x.js:1:2"))).toBe(SOMETHING_WENT_WRONG);
    expect(errorMessageOf(new ErrorResponse(500, "Server Error", "boom"))).toBe(SOMETHING_WENT_WRONG);
  });
});
