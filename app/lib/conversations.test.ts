import { describe, expect, it } from "vitest";
import { tracePassage } from "../../tests/support/trace-passage";
import { FinetuningInput, type AnswerTrace, type ConversationRow, type TracePassage } from "@contract";
import {
  matchedText,
  conversationsCsv,
  expectedSourceOf,
  filterValuesOf,
  headingPathText,
  pageRuleOf,
  listSearchOf,
  pageSizeChoices,
  pageRulesNow,
  testQuestionFromAnswer,
  traceSources,
  triggerPointWithAgent,
} from "./conversations";
import { parseCsv } from "./csv";
import { isHttpLink } from "./links";

const passage = tracePassage;
const trace = (passages: TracePassage[]): AnswerTrace => ({
  threshold: 0.3,
  top_score: 1,
  passages,
  controls: [],
  model: false,
});

describe("a trigger point on the client-wide screens", () => {
  it("is named by its agent with its code, Default for the client's own, and its code when no agent answers on it", () => {
    const names = { admissions: "Admissions Assistant" };
    expect(triggerPointWithAgent("admissions", names)).toBe("Admissions Assistant (admissions)");
    expect(triggerPointWithAgent("", names)).toBe("Default");
    expect(triggerPointWithAgent("retired", names)).toBe("retired");
    // An object's own keys only: a code named like one of its built-in properties is still a code.
    expect(triggerPointWithAgent("toString", names)).toBe("toString");
  });
});

describe("how many conversations the list says match", () => {
  it("counts them, and past the count's cap says more than it and how many an export holds", () => {
    expect(matchedText(1, false)).toBe("1 conversation matches these filters.");
    expect(matchedText(2400, false)).toBe("2,400 conversations match these filters.");
    expect(matchedText(10_000, true)).toBe(
      "More than 10,000 conversations match these filters. Export CSV holds up to 100,000 of them.",
    );
  });
});

describe("the list's filters in the address", () => {
  it("reads every filter as typed, a missing one as empty", () => {
    const values = filterValuesOf(new URLSearchParams("from=2026-01-01&outcome=nonsense&page=3"));
    expect(values).toMatchObject({ from: "2026-01-01", to: "", outcome: "nonsense", page_size: "" });
    expect(values).not.toHaveProperty("page");
  });

  it("keeps the list's filters and page for a conversation's way back, nothing else", () => {
    expect(listSearchOf("?rating=down&reviewed=false&page=2&confirm=x&from=")).toBe(
      "?rating=down&reviewed=false&page=2",
    );
    expect(listSearchOf("")).toBe("");
  });

  it("offers every table's page sizes, and a size the API serves when the address asks for it", () => {
    expect(pageSizeChoices("")).toEqual([10, 20, 50, 100]);
    expect(pageSizeChoices("25")).toEqual([10, 20, 25, 50, 100]);
    expect(pageSizeChoices("1000")).toEqual([10, 20, 50, 100, 1000]);
    expect(pageSizeChoices("7")).toEqual([10, 20, 50, 100]);
  });
});

describe("an answer's trace", () => {
  it("names each page or file once, in retrieval's order, with its title", () => {
    const sources = traceSources(
      trace([
        passage(1),
        passage(2, { url: "https://www.northfield.edu/page-1" }),
        passage(3, { url: null, file_name: "catalog.pdf", title: "catalog.pdf" }),
      ]),
    );
    expect(sources).toEqual([
      { value: "https://www.northfield.edu/page-1", label: "Page 1 (https://www.northfield.edu/page-1)" },
      { value: "catalog.pdf", label: "catalog.pdf" },
    ]);
    expect(traceSources(null)).toEqual([]);
  });

  it("joins a heading path outermost first, and links only web addresses", () => {
    expect(headingPathText(["Admissions", "Deadlines"])).toBe("Admissions › Deadlines");
    expect(isHttpLink("https://www.northfield.edu/")).toBe(true);
    for (const bad of ["javascript:alert(1)", "//evil.example", "https:///x", "catalog.pdf"])
      expect(isHttpLink(bad), bad).toBe(false);
  });
});

describe("a test question made from an answer", () => {
  it("expects the question's outcome and the first page the answer quoted", () => {
    const answer = {
      question: "When are applications due?",
      outcome: "answered" as const,
      trace: trace([passage(1), passage(2, { used: true })]),
      rating: null,
    };
    expect(testQuestionFromAnswer(answer)).toEqual({
      question: "When are applications due?",
      expect_outcome: "answered",
      expect_source: "https://www.northfield.edu/page-2",
      expect_source_typed: "",
      expect_text: "",
    });
  });

  it("expects an answer to a question that got the fallback, with no source, as Insights' gaps do", () => {
    expect(
      testQuestionFromAnswer({
        question: "Where can I park?",
        outcome: "fallback",
        trace: trace([passage(1)]),
        rating: "down",
      }),
    ).toMatchObject({ expect_outcome: "answered", expect_source: "" });
    expect(testQuestionFromAnswer({ question: null, outcome: "answered", trace: null, rating: null })).toMatchObject({
      question: "",
      expect_source: "",
    });
  });

  it("puts a follow-up after the question it leaned on, since a run asks each question alone", () => {
    const followUp = (before: string) =>
      testQuestionFromAnswer({
        question: "How much does it cost?",
        outcome: "answered",
        trace: { ...trace([]), follow_up: before },
        rating: null,
      }).question;
    expect(followUp("Tell me about housing and meals")).toBe("Tell me about housing and meals. How much does it cost?");
    expect(followUp("What about housing?")).toBe("What about housing? How much does it cost?");
  });

  it("does not lock in the source of an answer the visitor rated unhelpful", () => {
    const rated = { question: "When?", outcome: "answered" as const, trace: trace([passage(1, { used: true })]) };
    expect(testQuestionFromAnswer({ ...rated, rating: "down" }).expect_source).toBe("");
    expect(testQuestionFromAnswer({ ...rated, rating: "up" }).expect_source).toBe("https://www.northfield.edu/page-1");
  });

  it("sends the typed source over the chosen one, and none when neither is given", () => {
    const values = {
      question: "Q?",
      expect_outcome: "",
      expect_source: "https://a.example/x",
      expect_source_typed: "",
      expect_text: "",
    };
    expect(expectedSourceOf(values)).toBe("https://a.example/x");
    expect(expectedSourceOf({ ...values, expect_source_typed: "  catalog.pdf " })).toBe("catalog.pdf");
    expect(expectedSourceOf({ ...values, expect_source: " " })).toBeNull();
  });
});

describe("a finetuning rule made from a passage", () => {
  it("lowers a page by half or excludes it for the trigger point that answered, as the contract takes it", () => {
    const lower = pageRuleOf(passage(1), "admissions", "lower");
    expect(lower).toEqual({
      trigger_point: "admissions",
      finetuning_type: "url_pattern",
      // Tied to both ends: the page alone, not every page whose address starts with it.
      pattern: "^https://www.northfield.edu/page-1$",
      penalty: 0.5,
    });
    expect(pageRuleOf(passage(1), "", "exclude").penalty).toBe(1);
    expect(FinetuningInput.safeParse(lower).success).toBe(true);
  });

  it("names an uploaded file by its name, and cuts a long address to the pattern's length", () => {
    expect(pageRuleOf(passage(1, { url: null, file_name: "catalog.pdf" }), "admissions", "lower")).toMatchObject({
      finetuning_type: "pdf_weightage",
      pattern: "^catalog.pdf$",
    });
    const long = pageRuleOf(
      passage(1, { url: `https://www.northfield.edu/${"a".repeat(900)}` }),
      "admissions",
      "exclude",
    );
    expect(long.pattern).toBe(`https://www.northfield.edu/${"a".repeat(900)}`.slice(0, 500));
    expect(FinetuningInput.safeParse(long).success).toBe(true);
  });
});

describe("the list's CSV", () => {
  it("has a row per conversation that reads back as written", () => {
    const row: ConversationRow = {
      id: "0b7c5a52-3f1e-4f4c-9d7e-2a6f8e1b9c10",
      started_at: "2026-11-28T04:50:00.000Z",
      environment: "stage",
      trigger_point: "",
      questions: 2,
      last_question: '=cost, and "fees"?',
      outcomes: { answered: 1, fallback: 1, canned: 0, disclaimed: 0, small_talk: 1 },
      rating: "mixed",
      lead: true,
      reviewed: false,
      awaiting_review: 1,
    };
    const [header, line] = parseCsv(conversationsCsv([row]));
    expect(header[0]).toBe("Started (UTC)");
    expect(line).toEqual([
      "2026-11-28T04:50:00.000Z",
      "Sandbox",
      "Default",
      "2",
      '\'=cost, and "fees"?',
      "1",
      "1",
      "0",
      "0",
      "1",
      "Mixed",
      "yes",
      "no",
      row.id,
    ]);
    // As the screen says them: an unrated conversation is "Not rated", not an empty cell.
    const [, unrated] = parseCsv(conversationsCsv([{ ...row, environment: "prod", rating: null }]));
    expect([unrated[1], unrated[10]]).toEqual(["Production", "Not rated"]);
  });
});

describe("the rules a transcript's pages have now", () => {
  it("gives each page of the traces the penalty its rule has for the conversation's trigger point", () => {
    const messages = [{ trace: trace([passage(1), passage(2)]) }, { trace: null }];
    const rule = (
      pattern: string,
      penalty: number | null,
      trigger_point = "admissions",
      finetuning_type: "url_pattern" | "pdf_weightage" = "url_pattern",
    ) => ({ trigger_point, finetuning_type, pattern, penalty });
    expect(
      pageRulesNow(
        [
          rule("^https://www.northfield.edu/page-1$", 1),
          rule("^https://www.northfield.edu/page-2$", 0.5, ""),
          rule("^https://www.northfield.edu/page-2$", 0.3, "admissions", "pdf_weightage"),
          rule("^https://www.northfield.edu/elsewhere$", 1),
        ],
        messages,
        "admissions",
      ),
    ).toEqual({ "^https://www.northfield.edu/page-1$": 1 });
  });
});
