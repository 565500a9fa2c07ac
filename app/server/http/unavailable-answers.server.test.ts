import type { LoaderFunctionArgs, ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { NOT_SAVED_JUST_NOW } from "~/lib/messages";
import { ApiError } from "~/server/api/client.server";
import { withUnavailableAnswers } from "./unavailable-answers.server";

/** A build of one route whose loader and action throw `thrown`. */
function buildThrowing(thrown: unknown) {
  const fail = async () => {
    throw thrown;
  };
  const build = {
    routes: { "routes/page": { id: "routes/page", path: "page", module: { loader: fail, action: fail } } },
  } as unknown as ServerBuild;
  const { module } = withUnavailableAnswers(build).routes["routes/page"];
  return { loader: module.loader!, action: module.action! };
}
const args = {
  request: new Request("http://localhost/page"),
  context: {},
  params: {},
} as unknown as LoaderFunctionArgs;
/** What a loader or action threw. */
const thrownBy = (run: () => unknown) =>
  Promise.resolve()
    .then(run)
    .then(
      () => null,
      (error: unknown) => error,
    );

describe("an API 503 no loader or action handled", () => {
  it("reaches the error screen as a thrown response of its message and the API's Retry-After", async () => {
    const { loader, action } = buildThrowing(new ApiError(503, { message: NOT_SAVED_JUST_NOW }, "5"));
    for (const handler of [loader, action]) {
      const thrown = await thrownBy(() => handler(args));
      expect(thrown).toBeInstanceOf(Response);
      const answer = thrown as Response;
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(await answer.json()).toBe(NOT_SAVED_JUST_NOW);
    }
  });

  it("leaves every failure of ours as it was thrown, for Remix to log and hide", async () => {
    const broken = new Error("boom");
    const serverFault = new ApiError(500, { message: "The API answered 500" });
    for (const error of [broken, serverFault]) {
      expect(await thrownBy(() => buildThrowing(error).loader(args))).toBe(error);
    }
  });
});

describe("an API refusal no loader or action handled", () => {
  it("reaches the error screen as a thrown response of its status, message and Retry-After", async () => {
    const cases = [
      { error: new ApiError(400, { message: "Pick a day on or before today." }), retryAfter: null },
      { error: new ApiError(409, { message: "This agent was changed by someone else." }), retryAfter: null },
      { error: new ApiError(429, { message: "Too many requests; try again in 30 seconds." }, "30"), retryAfter: "30" },
    ];
    for (const { error, retryAfter } of cases) {
      const { loader, action } = buildThrowing(error);
      for (const handler of [loader, action]) {
        const thrown = await thrownBy(() => handler(args));
        expect(thrown).toBeInstanceOf(Response);
        const answer = thrown as Response;
        expect(answer.status).toBe(error.status);
        expect(answer.headers.get("retry-after")).toBe(retryAfter);
        expect(await answer.json()).toBe(error.message);
      }
    }
  });
});
