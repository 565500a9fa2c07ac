import { expect } from "vitest";
import type { ToastInput } from "../../app/server/toast.server";

/*
 * Matchers for what a loader or action answered (a Response, as `settle` hands it over):
 *
 *   expect(response).toHaveRedirect("/northfield");          // a 302 to exactly that address
 *   expect(response).toHaveRedirect(/^\/storage\/download\?/); // a 302 to an address it matches
 *   await expect(response).toSendToast({ type: "success", description: "Saved" });
 *
 * Registered for every test file by setup.ts.
 */

interface ResponseLike {
  status: number;
  headers: Headers;
}

const isResponse = (value: unknown): value is ResponseLike =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ResponseLike).status === "number" &&
  (value as ResponseLike).headers instanceof Headers;

expect.extend({
  /**
   * A redirect (302 unless `status` says otherwise: Remix's `redirect` answers 302, and so does
   * every redirect of the console) to `location`: the same string, or one a RegExp matches. Without
   * a location, any address will do.
   */
  toHaveRedirect(received: unknown, location?: string | RegExp, status = 302) {
    const { isNot, utils } = this;
    if (!isResponse(received))
      return { pass: false, message: () => `Expected a Response, received ${utils.printReceived(received)}` };
    const actual = received.headers.get("location");
    const sameStatus = received.status === status;
    const sameLocation =
      actual !== null &&
      (location === undefined || (typeof location === "string" ? actual === location : location.test(actual)));
    const wanted = `a ${status} redirect${location === undefined ? "" : ` to ${utils.printExpected(location)}`}`;
    const answered =
      actual === null
        ? `a ${utils.printReceived(received.status)} without a Location`
        : `a ${utils.printReceived(received.status)} to ${utils.printReceived(actual)}`;
    return {
      pass: sameStatus && sameLocation,
      message: () => `Expected the response ${isNot ? "not " : ""}to be ${wanted}, but it was ${answered}`,
    };
  },

  /**
   * The toast the response's flash cookie carries, as the next page shows it (the schema's defaults
   * filled in), equal to `expected`; asymmetric matchers (`expect.stringMatching`, …) may stand in
   * for any part. Without `expected`, any toast will do; `.not.toSendToast()` says none is sent.
   */
  async toSendToast(received: unknown, expected?: ToastInput) {
    const { isNot, utils } = this;
    if (!isResponse(received))
      return { pass: false, message: () => `Expected a Response, received ${utils.printReceived(received)}` };
    // Imported here, not at the top: the setup file loads this module for every test, API tests too.
    const { toastOf } = await import("./console-context");
    const toast = await toastOf(received);
    if (toast === null)
      return {
        pass: false,
        message: () =>
          isNot
            ? "Expected the response not to send a toast, and it sent none"
            : `Expected the response to send ${expected === undefined ? "a toast" : utils.printExpected(expected)}, but it sent none`,
      };
    if (expected === undefined)
      return {
        pass: true,
        message: () => `Expected the response not to send a toast, but it sent ${utils.printReceived(toast)}`,
      };
    const pass = this.equals(toast, expected);
    return {
      pass,
      message: () =>
        pass
          ? `Expected the response not to send the toast ${utils.printExpected(expected)}, but it did`
          : `Expected the response to send the toast:\n${utils.diff(expected, toast)}`,
    };
  },
});

interface ResponseMatchers<R = unknown> {
  /** A 302 (or `status`) redirect to `location`: the same string, or one the RegExp matches; any when left out. */
  toHaveRedirect(location?: string | RegExp, status?: number): R;
  /** The toast the response's flash cookie carries equals `expected` (any toast when left out). Await it. */
  toSendToast(expected?: ToastInput): Promise<R>;
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Assertion<T = any> extends ResponseMatchers<T> {}
}
