import { describe, expect, it } from "vitest";
import { ConversationsQuery } from "@contract";
import { CONVERSATION_SEARCH_CHARS } from "@contract/values/conversations";
import { conversationsAskingPath, searchOfQuestion, type AskedInScope } from "./insights-conversations";

const wholeClient: AskedInScope = {
  urlCode: "northfield",
  agentPath: null,
  range: { from: "2026-11-04", to: "2026-12-03" },
  environment: "all",
};

/** The list's filters a path carries, as the Conversations screen reads them. */
const filtersOf = (path: string) => Object.fromEntries(new URL(path, "http://console.test").searchParams);

describe("conversationsAskingPath", () => {
  it("searches the client's list for the question over the dashboard's days", () => {
    const path = conversationsAskingPath(wholeClient, "Can I bring my cat?");
    expect(path.startsWith("/northfield/conversations?")).toBe(true);
    expect(filtersOf(path)).toEqual({ search: "Can I bring my cat?", from: "2026-11-04", to: "2026-12-03" });
  });

  it("reads one agent's list, in one environment, and for an unanswered question the fallbacks only", () => {
    const path = conversationsAskingPath(
      { ...wholeClient, agentPath: "/northfield/agent/student%20success", environment: "prod" },
      "Where is the lab?",
      true,
    );
    expect(path.startsWith("/northfield/agent/student%20success/conversations?")).toBe(true);
    expect(filtersOf(path)).toMatchObject({ environment: "prod", outcome: "fallback", search: "Where is the lab?" });
  });

  it("gives the API filters it accepts", () => {
    const long = `${"Which scholarship covers ".repeat(12)}tuition?`;
    for (const path of [
      conversationsAskingPath(wholeClient, long, true),
      conversationsAskingPath({ ...wholeClient, environment: "stage" }, "学费是多少？".repeat(60)),
    ]) {
      expect(ConversationsQuery.safeParse(filtersOf(path)).success).toBe(true);
    }
  });
});

describe("searchOfQuestion", () => {
  it("keeps a question's words, its spaces made single", () => {
    expect(searchOfQuestion("  where is the \n quantum  lab? ")).toBe("where is the quantum lab?");
  });

  it("cuts a longer question between words, within the search's length", () => {
    const question = `${"scholarship ".repeat(30)}deadline?`;
    const search = searchOfQuestion(question);
    expect(search.length).toBeLessThanOrEqual(CONVERSATION_SEARCH_CHARS);
    expect(search.split(" ").every((word) => word === "scholarship")).toBe(true);
    expect(question.startsWith(search)).toBe(true);
  });

  it("cuts a text without spaces at the search's length", () => {
    const search = searchOfQuestion("学".repeat(CONVERSATION_SEARCH_CHARS + 50));
    expect(search).toHaveLength(CONVERSATION_SEARCH_CHARS);
  });
});
