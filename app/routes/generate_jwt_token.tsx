import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireApi } from "~/server/api/client.server";
import { getUserInfo } from "~/server/api/users-api.server";
import { consoleContext } from "~/server/context.server";
import { getSession } from "~/server/session.server";

const USE_POST = { status: 405, headers: { Allow: "POST" } };
const signInFirst = (headers?: HeadersInit) => json({ message: "Sign in first" }, { status: 401, headers });

export function loader() {
  return json({ message: "Use POST" }, USE_POST);
}

/**
 * `POST /generate_jwt_token` on the back-office host: with the console's session cookie (a fetch
 * with credentials), answers `{token}` — a current API user token that the back-office pages
 * (`/backoffice/{url_code}/…`) accept as `Authorization: Bearer`. See docs/decisions/015.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ message: "Use POST" }, USE_POST);
  const ctx = consoleContext(context);
  const session = await getSession(request, ctx);
  if (!session.get("refresh_token")) return signInFirst();
  try {
    const api = await requireApi(request, ctx);
    // One cheap call proves the token (refreshing it first when it has expired) before handing it out.
    await getUserInfo(api);
    return json({ token: api.session.get("user_token")! }, { headers: { "Cache-Control": "no-store" } });
  } catch (thrown) {
    // A session whose refresh failed is sent to the login page by requireApi; a script wants a 401.
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      const clearSession = thrown.headers.get("Set-Cookie");
      return signInFirst(clearSession ? { "Set-Cookie": clearSession } : undefined);
    }
    throw thrown;
  }
}
