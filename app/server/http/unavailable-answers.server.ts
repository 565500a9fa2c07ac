import { json, type ServerBuild } from "@remix-run/node";

/**
 * An API refusal (4xx) or 503 (it could not reach its data) that a route's loader or action lets
 * through reaches the route's error screen as a thrown response with its status and message (after
 * a 503 post, the post to send again: client.server.ts). As the API client raises it, an Error,
 * Remix keeps its status but answers its message as "Unexpected Server Error" in production, on a
 * page drawn on the server and on a client-side navigation or post alike, and the screen could only
 * say "Something went wrong". One place, so a route added later needs nothing.
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
 * An API client's refusal or 503 (client.server.ts' ApiError), known by its fields: this module is
 * bundled with the server, apart from the routes' own copy of the client, so its class is not the
 * routes'. Any other Error (a fault of ours) stays one, for Remix to log and hide.
 */
function refusalAnswer(error: unknown) {
  if (!(error instanceof Error) || !("data" in error)) return null;
  const { status, data, retryAfter } = error as { status?: unknown; data: unknown; retryAfter?: unknown };
  if (typeof status !== "number" || !((status >= 400 && status < 500) || status === 503)) return null;
  return json(data, { status, headers: typeof retryAfter === "string" ? { "Retry-After": retryAfter } : {} });
}

/** A loader or action whose API refusals and 503s are thrown as responses, with the API's Retry-After. */
export function answeringUnavailable<Args extends unknown[], Result>(handler: (...args: Args) => Result) {
  return async (...args: Args): Promise<Awaited<Result>> => {
    try {
      return await handler(...args);
    } catch (error) {
      throw refusalAnswer(error) ?? error;
    }
  };
}
