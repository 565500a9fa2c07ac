import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { filterValuesOf } from "~/lib/conversations";
import { ConversationFilters } from "./ConversationFilters";

/** The filters as the server renders them at `address`. */
async function rendered(address: string) {
  const routes = [
    {
      path: "*",
      element: (
        <ConversationFilters
          values={filterValuesOf(new URL(address, "http://console").searchParams)}
          fieldErrors={{}}
          exportHref={null}
        />
      ),
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(address, "http://console")));
  if (context instanceof Response) throw new Error("redirected");
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />,
  );
}

/** Each label's text, by the control it names. */
const labels = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<label for="([^"]+)"[^>]*>([^<]*)<\/label>/g)].map(([, id, text]) => [id, text]),
  );

describe("the Conversations filters", () => {
  it("say their dates are UTC days, as Business Insights does", async () => {
    const html = await rendered("/northfield/conversations?from=2026-03-10&to=2026-03-11");
    expect(labels(html)).toMatchObject({
      "conversations-from": "From (UTC day)",
      "conversations-to": "To (UTC day)",
    });
  });
});
