import { json, type ServerBuild } from "@remix-run/node";

/**
 * A 503 of the API (it could not reach its data) that a route's loader or action lets through
 * reaches the route's error screen as a thrown response: its message and, after a post, the post to
 * send again (client.server.ts). As the API client raises it, an Error, Remix would answer it as
 * "Unexpected Server Error" in production, on a page drawn on the server and on a client-side
 * navigation or post alike, and keep neither. One place, so a route added later needs nothing.
 */
export function withUnavailableAnswers(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const { loader, action } = route.module;
      const module = {
        ...route.module,
        ...(loader ? { loader: answeringUnavailable(loader) } : {}),
        ...(action ? { action: answeringUnavailable(action) } : {}),
      };
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes };
}

/**
 * An API client's 503 (client.server.ts' ApiError), known by its fields: this module is bundled with
 * the server, apart from the routes' own copy of the client, so its class is not the routes'.
 */
function unavailableAnswer(error: unknown) {
  if (!(error instanceof Error) || (error as { status?: unknown }).status !== 503 || !("data" in error)) return null;
  const { data, retryAfter } = error as { data: unknown; retryAfter?: unknown };
  return json(data, { status: 503, headers: typeof retryAfter === "string" ? { "Retry-After": retryAfter } : {} });
}

/** A loader or action whose API 503s are thrown as responses, with the API's Retry-After. */
export function answeringUnavailable<Args extends unknown[], Result>(handler: (...args: Args) => Result) {
  return async (...args: Args): Promise<Awaited<Result>> => {
    try {
      return await handler(...args);
    } catch (error) {
      throw unavailableAnswer(error) ?? error;
    }
  };
}
