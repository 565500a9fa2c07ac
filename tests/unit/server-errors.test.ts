import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleError } from "../../app/entry.server";

/** What Remix hands the handler: the error, and the request it happened on. */
const args = (aborted = false) => {
  const controller = new AbortController();
  if (aborted) controller.abort();
  const request = new Request("http://127.0.0.1/northfield", { signal: controller.signal });
  return { request, params: {}, context: {} as AppLoadContext };
};

/** A refusal of the router, as Remix builds one (an ErrorResponse with the Error it came from). */
const refusal = (status: number) =>
  Object.assign(Object.create(null), {
    status,
    statusText: "Method Not Allowed",
    internal: true,
    data: "",
    error: new Error('You made a POST request to "/northfield" but did not provide an `action`'),
  });

describe("what the server logs of a failed request", () => {
  afterEach(() => vi.restoreAllMocks());

  it("leaves out the router's refusals of the caller's mistakes, and aborted requests", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    handleError(refusal(405), args());
    handleError(refusal(403), args());
    handleError(new Error("failed"), args(true));
    expect(logged).not.toHaveBeenCalled();
  });

  it("logs a failure of the server's own, and the Error inside a router error of 500", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const failure = new Error("the API is unreachable");
    handleError(failure, args());
    const internal = refusal(500);
    handleError(internal, args());
    expect(logged.mock.calls).toEqual([[failure], [internal.error]]);
  });
});
