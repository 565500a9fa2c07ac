import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import type { AnswerTrace, ConversationMessage, TracePassage } from "@contract";
import { tracePassage } from "../../../tests/support/trace-passage";
import { PartOutcomeChips, WhyThisAnswer, type TraceLinks } from "./WhyThisAnswer";

/*
 * "Why this answer" as the server renders it: what the trace names links to where it is set
 * (docs/decisions/030, "The trace links what it names").
 */
const LINKS: TraceLinks = {
  qualityCheck: "/northfield/agent/admissions/controls/quality-check",
  topicScreens: {
    no_go_topic: ["/northfield/agent/admissions/controls/no-go-topics", "/northfield/controls/no-go-topics"],
    sensitive_topic: [
      "/northfield/agent/admissions/controls/sensitive-topics",
      "/northfield/controls/sensitive-topics",
    ],
  },
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

async function rendered(answer: ConversationMessage, canCorrect = true, thresholdNow: number | null = null) {
  const routes = [
    {
      path: "*",
      element: (
        <WhyThisAnswer
          answer={answer}
          triggerPoint="admissions"
          links={LINKS}
          canCorrect={canCorrect}
          pageRules={{}}
          thresholdNow={thresholdNow}
        />
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

/** The item of the "Questions asked" list that quotes `question`, as markup. */
function partItem(html: string, question: string) {
  const list = /<ol aria-label="Questions asked">(.*?)<\/ol>/s.exec(html)?.[1] ?? "";
  return [...list.matchAll(/<li>(.*?)<\/li>/gs)].map(([, item]) => item).find((item) => item.includes(question)) ?? "";
}

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
    expect(hrefOf(html, "No-Go topic matched: other universities")).toBe(
      "/northfield/agent/admissions/controls/no-go-topics",
    );
    expect(hrefOf(html, "Sensitive topic matched: scholarships")).toBe(
      "/northfield/agent/admissions/controls/sensitive-topics",
    );
  });

  it("say a topic of Default's list is set there, and link to Default's screen", async () => {
    const html = await rendered(
      answerWith("disclaimed", {
        confidence: 0.5,
        controls: [
          { type: "no_go_topic", name: "politics", from_default: true },
          { type: "sensitive_topic", name: "visas", from_default: true },
        ],
      }),
    );
    expect(hrefOf(html, "No-Go topic matched: politics, set under Default")).toBe("/northfield/controls/no-go-topics");
    expect(hrefOf(html, "Sensitive topic matched: visas, set under Default")).toBe(
      "/northfield/controls/sensitive-topics",
    );
  });
});

describe("the threshold", () => {
  const fallback = answerWith("fallback", { confidence: 0.03, fallback_reason: "below_threshold" });
  const NOW = "The Minimum Retrieval Confidence is 0.02 now: answers given since are held to it, not to 0.04.";

  it("says the Quality Check's threshold now beside the one the trace recorded, when it changed since", async () => {
    const html = textOf(await rendered(fallback, true, 0.02));
    expect(html).toContain(
      "against the Minimum Retrieval Confidence in force, 0.04: below it, so no passage was quoted.",
    );
    expect(html).toContain(NOW);
  });

  it("says nothing more while it is the same, or unknown", async () => {
    expect(textOf(await rendered(fallback, true, 0.04))).not.toContain("now:");
    expect(textOf(await rendered(fallback, true, null))).not.toContain("now:");
  });
});

describe("the outcomes beside an answer of several questions", () => {
  it("say the other outcomes its questions had, as the list counts the answer under each", () => {
    const answer = answerWith("answered", {
      parts: [
        { question: "When do applications close?", outcome: "answered", confidence: 0.62 },
        { question: "Is there parking?", outcome: "fallback", confidence: 0.02, fallback_reason: "below_threshold" },
        { question: "Is there a shuttle?", outcome: "fallback", confidence: 0, fallback_reason: "none_quotable" },
      ],
    });
    const html = renderToStaticMarkup(<PartOutcomeChips answer={answer} />);
    expect(textOf(html)).toBe("2 of 3 questions: Fallback");
    expect(html).toContain('data-outcome="fallback"');
    // An answer of one question, or of several that came out alike, has its own outcome alone.
    expect(renderToStaticMarkup(<PartOutcomeChips answer={answerWith("answered", {})} />)).toBe("");
  });
});

describe("each question of a message that asked several", () => {
  const several = answerWith("answered", {
    parts: [
      { question: "When do applications close?", outcome: "answered", confidence: 0.62 },
      { question: "Is there parking?", outcome: "fallback", confidence: 0.02, fallback_reason: "below_threshold" },
      {
        question: "Where is the parking guide?",
        outcome: "fallback",
        confidence: 0,
        fallback_reason: "file_not_tagged",
        files_not_tagged: ["Parking guide.pdf"],
      },
    ],
  });

  it("says a question that fell back below the threshold its chance, against the threshold, with the Quality Check link", async () => {
    const item = partItem(await rendered(several), "Is there parking?");
    expect(textOf(item)).toContain(
      "Fallback, no answer: the estimated chance that an answer is right was below the Minimum Retrieval Confidence. Estimated chance that it is right: 0.02, against the Minimum Retrieval Confidence in force, 0.04: below it, so no passage was quoted.",
    );
    expect(hrefOf(item, "Minimum Retrieval Confidence")).toBe(LINKS.qualityCheck);
  });

  it("says an answered question its chance against the threshold, as a single question's trace does", async () => {
    const item = partItem(await rendered(several), "When do applications close?");
    expect(textOf(item)).toContain(
      "Answered. Estimated chance that it is right: 0.62, against the Minimum Retrieval Confidence in force, 0.04: it reaches it.",
    );
    expect(hrefOf(item, "Minimum Retrieval Confidence")).toBe(LINKS.qualityCheck);
  });

  it("links Files beside a question whose passages are in a file not tagged for the environment", async () => {
    const item = partItem(await rendered(several), "Where is the parking guide?");
    expect(textOf(item)).toContain(
      "Tag the file in Files for this environment to answer from it: “Parking guide.pdf”.",
    );
    expect(hrefOf(item, "Open Files")).toBe(LINKS.files);
    // Those who may not tag files are not sent to do it.
    expect(hrefOf(partItem(await rendered(several, false), "Where is the parking guide?"), "Open Files")).toBe(
      undefined,
    );
  });
});

describe("a passage of an uploaded file", () => {
  const filePassage = (rank: number, fields: Partial<TracePassage>) =>
    tracePassage(rank, { url: null, file_name: `Guide ${rank}.pdf`, title: `Guide ${rank}`, ...fields });
  const answer = answerWith("answered", {
    passages: [
      filePassage(1, { file_id: 42 }),
      filePassage(2, { file_deleted: true }),
      filePassage(3, {}),
      tracePassage(4),
    ],
  });
  const cellOf = (html: string, rank: number) =>
    new RegExp(`<tr data-rank="${rank}">(.*?)</tr>`, "s").exec(html)?.[1] ?? "";

  it("links the file's chunks on the Files screen while the file is there", async () => {
    const html = await rendered(answer, false);
    expect(hrefOf(cellOf(html, 1), "Guide 1.pdf")).toBe(`${LINKS.files}/42/chunks`);
    expect(textOf(cellOf(html, 1))).toContain("Guide 1.pdf (file)");
  });

  it("names a file deleted since without a link, and says so", async () => {
    const html = await rendered(answer, false);
    expect(textOf(cellOf(html, 2))).toContain("Guide 2.pdf (file, deleted since)");
    expect(cellOf(html, 2)).not.toContain("<a ");
    // A file the trace does not identify (an older trace's, not found) is named as before.
    expect(textOf(cellOf(html, 3))).toContain("Guide 3.pdf (file)");
    expect(cellOf(html, 3)).not.toContain("<a ");
  });
});
