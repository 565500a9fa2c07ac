import type { ServerBuild } from "@remix-run/node";

/** What a download, the test page or a sign-in callback says to a method other than GET. */
export const GET_ONLY_MESSAGE = "This address only answers GET: open it in the browser or download it.";

/**
 * A route without a page or an action (a download, the test page, a redirect) answers only GET and
 * HEAD. Remix refuses any other method on it with a message meant for developers, which production
 * mode turns into "Unexpected Server Error" under the 405, and logs the refusal with its stack as if
 * the server had failed. Each such route gets an action that refuses with a message of its own and
 * the `Allow` header instead: one place, so a download added later needs nothing of its own. A
 * page's 405 is its error page, which says what happened.
 */
export function withGetOnlyRefusals(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) =>
      route.module.default || route.module.action
        ? [id, route]
        : [id, { ...route, module: { ...route.module, action: refuseNonGet } }],
    ),
  );
  return { ...build, routes };
}

function refuseNonGet() {
  return new Response(JSON.stringify({ message: GET_ONLY_MESSAGE }), {
    status: 405,
    headers: { "Content-Type": "application/json; charset=utf-8", Allow: "GET, HEAD" },
  });
}
