import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { GapList, type Gap } from "./GapList";

/* The unanswered questions as the server renders them. */
const LINKS = {
  conversations: "/northfield/agent/admissions/conversations",
  store: "/northfield/agent/admissions/knowledge-store/websites",
  files: "/northfield/agent/admissions/knowledge-store/files",
  qualityCheck: "/northfield/agent/admissions/controls/quality-check",
  finetuning: "/northfield/ai-finetuning/ai-finetuning",
};

const gapWith = (fields: Partial<Gap>): Gap => ({
  question: "when does the observatory open",
  asked_as: "When does the observatory open?",
  trigger_point: "admissions",
  unanswered: 2,
  closest: [],
  fallback_reason: "no_passage",
  left_out: false,
  files_not_tagged: [],
  lacked_words: [],
  pages: [],
  answered_since: null,
  ...fields,
});

async function rendered(gap: Gap) {
  const routes = [{ path: "*", element: <GapList gaps={[gap]} linksOf={() => LINKS} canConfigure /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://console/backoffice/northfield/dashboard"));
  if (context instanceof Response) throw new Error("redirected");
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />,
  );
}

describe("an unanswered question", () => {
  it("says when it was asked again and answered since", async () => {
    const html = await rendered(gapWith({ answered_since: "2026-12-04" }));
    expect(html).toContain(
      "Answered since: asked again on 2026-12-04 (UTC) and answered. The count above is of the asks before.",
    );
  });

  it("says nothing of a later answer while its latest ask went unanswered", async () => {
    expect(await rendered(gapWith({}))).not.toContain("Answered since");
  });
});
