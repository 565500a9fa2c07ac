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

  it("clear the filters but keep the sort and the rows per page chosen, and show only when something is filtered out", async () => {
    const clearHref = (html: string) => html.match(/<a [^>]*href="([^"]*)"[^>]*>Clear filters<\/a>/)?.[1] ?? null;
    expect(
      clearHref(await rendered("/northfield/conversations?search=park&rating=down&sort=oldest&page_size=50&page=3")),
    ).toBe("/northfield/conversations?sort=oldest&amp;page_size=50");
    // The defaults the form sends with every filter need not stay in the address.
    expect(clearHref(await rendered("/northfield/conversations?reviewed=false&sort=latest&page_size=10"))).toBe(
      "/northfield/conversations",
    );
    // A value the screen does not offer is left behind with the filters, not kept to be refused again.
    expect(clearHref(await rendered("/northfield/conversations?lead=true&sort=random&page_size=7"))).toBe(
      "/northfield/conversations",
    );
    // Only ordered or cut, the list leaves nothing out: there is nothing to clear.
    expect(clearHref(await rendered("/northfield/conversations?sort=oldest&page_size=50"))).toBeNull();
    expect(
      clearHref(await rendered("/northfield/conversations?environment=all&search=&sort=latest&page_size=10")),
    ).toBeNull();
  });
});
