import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TestQuestion } from "@contract";
import { CHAT_OUTCOMES } from "@contract/values/chat";
import { noQuestionsText, questionsCsv, readQuestionsCsv, unreadColumnsText } from "./test-questions";

describe("noQuestionsText", () => {
  it("says a search matched nothing, naming it, rather than that there are no questions", () => {
    expect(noQuestionsText("velodrome")).toBe("No test questions match “velodrome”.");
    expect(noQuestionsText("")).toBe("No test questions yet.");
  });
});

describe("readQuestionsCsv", () => {
  it("refuses a file whose quote never closes, naming the row and column it opened in", () => {
    const file = [
      "question,expect_text",
      'How tall is the clock tower?,"120 ft',
      "What is the fee?,$40",
      "When are tours?,10 am",
    ].join("\r\n");
    expect(readQuestionsCsv(file)).toEqual({
      ok: false,
      message:
        "Row 2, expect_text: The quote that opens this field is never closed, so the rest of the file would be read into it. Close the quote, or remove it.",
    });
  });

  it("blames the column the quote opened in: the question's, blank rows counted", () => {
    const refusal = (file: string) => {
      const read = readQuestionsCsv(file);
      return read.ok ? null : read.message;
    };
    expect(refusal('Question,Expect_Text\n\nWhen are tours?,10 am\n"How tall is the tower?,120 ft\n')).toMatch(
      /^Row 4, question: The quote that opens this field is never closed/,
    );
    // In the header itself, the column has no name yet.
    expect(refusal('question,"expect_text\nQ?,x\n')).toMatch(/^Row 1, column 2: The quote/);
  });

  it("keeps quotes inside a field as typed", () => {
    const read = readQuestionsCsv(
      'question,expect_source,expect_text,expect_outcome\nWhat does "BSN" stand for?,,Nursing,answered\n"Is it ""open""?",,yes,\n',
    );
    expect(read.ok && read.questions.map((q) => q.question)).toEqual(['What does "BSN" stand for?', 'Is it "open"?']);
  });

  it("reads a UTF-8 byte order mark as nothing", () => {
    const read = readQuestionsCsv("\uFEFFquestion,expect_text\nQ?,x\n");
    expect(read.ok && read.questions).toEqual([
      { question: "Q?", expect_source: null, expect_text: "x", expect_outcome: null },
    ]);
  });

  it("reads a file saved with semicolons or tabs, as a spreadsheet in much of Europe saves CSV", () => {
    const expected = [
      { question: "Où est la résidence ?", expect_source: null, expect_text: "Zoë, Nord", expect_outcome: "answered" },
      { question: "When are tours?", expect_source: null, expect_text: "10 am", expect_outcome: null },
    ];
    const semicolons =
      'question;expect_text;expect_outcome\r\nOù est la résidence ?;"Zoë, Nord";answered\r\nWhen are tours?;10 am;\r\n';
    const tabs =
      "question\texpect_text\texpect_outcome\nOù est la résidence ?\tZoë, Nord\tanswered\nWhen are tours?\t10 am\t\n";
    for (const file of [semicolons, tabs]) {
      const read = readQuestionsCsv(file);
      expect(read.ok && read.questions).toEqual(expected);
    }
    // A comma file whose texts hold semicolons is still read by its commas.
    const commas = readQuestionsCsv("question,expect_text\nFee; deadline?,$40; May 1\n");
    expect(commas.ok && commas.questions[0]).toMatchObject({ question: "Fee; deadline?", expect_text: "$40; May 1" });
  });

  it("reads the separator Excel's sep= first line names, numbering rows from the header as Excel shows them", () => {
    const read = readQuestionsCsv('\uFEFFsep=;\r\nquestion;expect_text\r\nWhen are tours?;"10 am, 2 pm"\r\n');
    expect(read).toMatchObject({
      ok: true,
      questions: [{ question: "When are tours?", expect_text: "10 am, 2 pm" }],
      rows: [2],
    });
    // Named tabs win over a header whose cells hold commas.
    const tabs = readQuestionsCsv("SEP=\t\nquestion\texpect_text\nFee, deadline?\t$40\n");
    expect(tabs.ok && tabs.questions[0]).toMatchObject({ question: "Fee, deadline?", expect_text: "$40" });
    // A question that merely starts with "sep=" is a header row like any other.
    expect(readQuestionsCsv("sep=x\nQ?\n")).toMatchObject({ ok: false });
  });

  it("reads the columns as the table's headings name them, and says which columns it does not read", () => {
    const read = readQuestionsCsv(
      "Question,Expected Source,Expected text,Expected outcome,Notes\nWhen are tours?,https://x.edu/tours,10 am,Answered,ask Kim\n",
    );
    expect(read).toEqual({
      ok: true,
      questions: [
        {
          question: "When are tours?",
          expect_source: "https://x.edu/tours",
          expect_text: "10 am",
          expect_outcome: "answered",
        },
      ],
      rows: [2],
      unread: ["Notes"],
    });
    expect(unreadColumnsText(["Notes"])).toBe(
      "the column “Notes” was not read (the import reads question, expect_source, expect_text, expect_outcome)",
    );
    expect(unreadColumnsText([])).toBeNull();
  });

  it("refuses a header naming a column twice, and quotes a header it cannot read", () => {
    expect(readQuestionsCsv("question,expect_text,Expected text\nQ?,a,b\n")).toEqual({
      ok: false,
      message: "The first row names the column expect_text twice (columns 2 and 3): keep one.",
    });
    expect(readQuestionsCsv("Frage;Quelle\nWo?;x\n")).toEqual({
      ok: false,
      message:
        "The first row must name the columns: question, expect_source, expect_text, expect_outcome. It reads “Frage;Quelle”.",
    });
  });

  it("refuses more questions than one import takes", () => {
    const file = `question,expect_text\n${"Q?,x\n".repeat(501)}`;
    expect(readQuestionsCsv(file)).toEqual({
      ok: false,
      message: "Import at most 500 questions at once; this file has 501.",
    });
  });

  it("reads back every question its export wrote, as stored", () => {
    // Texts as the API stores them (trimmed), made of what CSV and the formula guard treat specially.
    const awkward = fc
      .array(
        fc.oneof(
          fc.constantFrom('"', "'", ",", ";", "\r", "\n", "\r\n", "\t", " ", "=", "+", "-", "@", "\uFEFF", "\u202E"),
          fc.string({ unit: "grapheme", maxLength: 4 }),
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join("").trim());
    const question = fc.record({
      question: awkward.filter(Boolean),
      expect_source: fc.option(awkward.filter(Boolean)),
      expect_text: fc.option(awkward.filter(Boolean)),
      expect_outcome: fc.option(fc.constantFrom(...CHAT_OUTCOMES)),
    });
    fc.assert(
      fc.property(fc.array(question, { minLength: 1, maxLength: 5 }), (questions) => {
        const stored = questions.map(
          (q, index) =>
            ({ ...q, id: index + 1, trigger_point: "", created_at: "", updated_at: "" }) satisfies TestQuestion,
        );
        const read = readQuestionsCsv(questionsCsv(stored));
        expect(read).toEqual({ ok: true, questions, rows: questions.map((_, index) => index + 2), unread: [] });
      }),
      { numRuns: 500, seed: 20260515 },
    );
  });
});
