import { DATABASE_UNAVAILABLE } from "../../api/db/errors";
import type { ConsoleContext } from "../../app/server/context.server";

/**
 * The load context with the API answering as it does while its database does not (api/http/route.ts):
 * 503, Retry-After 5 and its message, for the calls `unavailable` picks; the others reach it as usual.
 * The PostgreSQL lane's tests take a real database away (database-relay.ts).
 */
export function withApiUnavailable<Context extends ConsoleContext>(
  context: Context,
  unavailable: (request: Request) => boolean = () => true,
): Context {
  return {
    ...context,
    apiFetch: async (request: Request) =>
      unavailable(request)
        ? Response.json({ message: DATABASE_UNAVAILABLE }, { status: 503, headers: { "Retry-After": "5" } })
        : context.apiFetch(request),
  };
}
