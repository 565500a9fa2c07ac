import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import type { AnswerTrace, ConversationMessage } from "@contract";
import { tracePassage } from "../../../tests/support/trace-passage";
import { WhyThisAnswer, type TraceLinks } from "./WhyThisAnswer";

/*
 * "Why this answer" as the server renders it: what the trace names links to where it is set
 * (docs/decisions/030, "The trace links what it names").
 */
const LINKS: TraceLinks = {
  qualityCheck: "/northfield/agent/admissions/controls/quality-check",
  noGoTopics: "/northfield/agent/admissions/controls/no-go-topics",
  sensitiveTopics: "/northfield/agent/admissions/controls/sensitive-topics",
  finetuning: "/northfield/ai-finetuning/ai-finetuning",
  knowledgeStore: "/northfield/agent/admissions/knowledge-store",
  files: "/northfield/agent/admissions/knowledge-store/files",
};

const answerWith = (outcome: ConversationMessage["outcome"], fields: Partial<AnswerTrace>): ConversationMessage => ({
  id: 7,
  role: "assistant",
  text: "…",
  at: "2026-03-10T10:00:00.000Z",
  outcome,
  sources: [],
  rating: null,
  comment: null,
  reviewed: false,
  question: "When do applications close? Is there parking?",
  trace: { threshold: 0.04, top_score: 1, passages: [tracePassage(1)], controls: [], model: false, ...fields },
});

async function rendered(answer: ConversationMessage, canCorrect = true) {
  const routes = [
    {
      path: "*",
      element: (
        <WhyThisAnswer answer={answer} triggerPoint="admissions" links={LINKS} canCorrect={canCorrect} pageRules={{}} />
      ),
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://console/northfield/conversations/1"));
  if (context instanceof Response) throw new Error("redirected");
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />,
  );
}

/** The element's text, tags left out. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"');

/** The link whose text is `text`, by its address. */
const hrefOf = (html: string, text: string) =>
  [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gs)].find(([, , inner]) => textOf(inner) === text)?.[1];

describe("the controls that fired", () => {
  it("link a No-Go topic and a Sensitive topic to the screens they are set on", async () => {
    const html = await rendered(
      answerWith("disclaimed", {
        confidence: 0.5,
        controls: [
          { type: "no_go_topic", name: "other universities" },
          { type: "sensitive_topic", name: "scholarships" },
        ],
      }),
    );
    expect(hrefOf(html, "No-Go topic matched: other universities")).toBe(LINKS.noGoTopics);
    expect(hrefOf(html, "Sensitive topic matched: scholarships")).toBe(LINKS.sensitiveTopics);
  });
});
