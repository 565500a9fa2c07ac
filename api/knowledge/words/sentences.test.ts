import { describe, expect, it } from "vitest";
import { sentencesOf } from "./sentences";

describe("sentencesOf", () => {
  it("ends sentences at full stops, question and exclamation marks", () => {
    expect(sentencesOf("Tours leave at 10 am. They last an hour! Are they free? Yes.")).toEqual([
      "Tours leave at 10 am.",
      "They last an hour!",
      "Are they free?",
      "Yes.",
    ]);
    expect(sentencesOf("Really?! Yes. Wait... What now?")).toEqual(["Really?!", "Yes.", "Wait...", "What now?"]);
  });

  // Each case: the sentences the text (them joined by a space) is split into.
  it.each([
    [["Pick up your card in Hall B.", "The office opens at 9."]],
    [["It is rich in vitamin D.", "Not only that: it is cheap."]],
    [["Choose Plan A.", "“This plan” covers fees."]],
    [["Apply to Room B. Kellogg signs it."]],
  ])("ends a sentence at a single capital when a function word follows it, not a name: %j", (sentences) => {
    expect(sentencesOf(sentences.join(" "))).toEqual(sentences);
  });

  it.each([
    [["Prices rose in the 1970s.", "Motorists paid more."]],
    [["Entry is at 565 °C.", "Turbines last longer."]],
    [["It flies the F-35B.", "Pilots train for it."]],
  ])("ends a sentence at letters that close a longer token, which are no initial: %j", (sentences) => {
    expect(sentencesOf(sentences.join(" "))).toEqual(sentences);
  });

  it("does not end a sentence at a title, an initial or an abbreviation", () => {
    expect(sentencesOf("The team was led by Dr. Shadlen of Columbia. Michael B. de Jong wrote it.")).toEqual([
      "The team was led by Dr. Shadlen of Columbia.",
      "Michael B. de Jong wrote it.",
    ]);
    expect(sentencesOf("E. A. Poe and J. I. Packer wrote it. Ask George W. Bush.")).toEqual([
      "E. A. Poe and J. I. Packer wrote it.",
      "Ask George W. Bush.",
    ]);
    expect(sentencesOf("Bring an ID, e.g. a passport. Then sign in.")).toEqual([
      "Bring an ID, e.g. a passport.",
      "Then sign in.",
    ]);
    expect(sentencesOf("The U.S. Army built it in Jan. 1942. See Fig. 3 and St. Louis.")).toEqual([
      "The U.S. Army built it in Jan. 1942.",
      "See Fig. 3 and St. Louis.",
    ]);
    expect(sentencesOf("Mr. and Mrs. Smith left at 5 p.m. on Friday.")).toEqual([
      "Mr. and Mrs. Smith left at 5 p.m. on Friday.",
    ]);
  });

  it("does not end a sentence at an abbreviation that stands before a number, and ends one at the word itself", () => {
    expect(
      sentencesOf("The office is in Room No. 5 of the library. Call ext. 204 or see Art. 12 of the rules."),
    ).toEqual(["The office is in Room No. 5 of the library.", "Call ext. 204 or see Art. 12 of the rules."]);
    expect(sentencesOf("Is parking free? The answer is no. 40 spaces are for staff.")).toEqual([
      "Is parking free?",
      "The answer is no. 40 spaces are for staff.",
    ]);
    expect(sentencesOf("The answer is no. Parking costs $5.")).toEqual(["The answer is no.", "Parking costs $5."]);
  });

  it("does not end a sentence inside a number, a version, a name or an address", () => {
    expect(sentencesOf("Version 1.6.0 costs $12.50, up 3.5% from 2019. Done!")).toEqual([
      "Version 1.6.0 costs $12.50, up 3.5% from 2019.",
      "Done!",
    ]);
    expect(sentencesOf("Set field id of the type Example.Group.id and visit www.example.edu today.")).toEqual([
      "Set field id of the type Example.Group.id and visit www.example.edu today.",
    ]);
  });

  it("keeps closing quotes and brackets with the sentence they close", () => {
    expect(sentencesOf('He said "Stop!" Then he left. (It was late.) "Why?" she asked.')).toEqual([
      'He said "Stop!"',
      "Then he left.",
      "(It was late.)",
      '"Why?" she asked.',
    ]);
    expect(sentencesOf("She wrote “Come early.” The doors open at 9.")).toEqual([
      "She wrote “Come early.”",
      "The doors open at 9.",
    ]);
  });

  it("starts a sentence at a Spanish ¿ or ¡, a currency sign or a hash", () => {
    expect(sentencesOf("¿Dónde está la biblioteca? ¡Aquí! Abre a las 9.")).toEqual([
      "¿Dónde está la biblioteca?",
      "¡Aquí!",
      "Abre a las 9.",
    ]);
    expect(sentencesOf("Fees rose again. $12,400 is the tuition. #MeToo is a movement.")).toEqual([
      "Fees rose again.",
      "$12,400 is the tuition.",
      "#MeToo is a movement.",
    ]);
  });

  it("ends Chinese and Japanese sentences at 。！？ with no space after them", () => {
    expect(sentencesOf("图书馆每天早上八点开放。周末只开放到下午五点！新生宿舍在哪里？在校园东侧。")).toEqual([
      "图书馆每天早上八点开放。",
      "周末只开放到下午五点！",
      "新生宿舍在哪里？",
      "在校园东侧。",
    ]);
    expect(sentencesOf("他说：“我不认为会有任何不同。”他笑了。他说：“不同。”")).toEqual([
      "他说：“我不认为会有任何不同。”",
      "他笑了。",
      "他说：“不同。”",
    ]);
    expect(sentencesOf("「授業料は62万円です。」奨学金は12月1日まで")).toEqual([
      "「授業料は62万円です。」",
      "奨学金は12月1日まで",
    ]);
  });

  it("ends sentences of scripts without capitals at their own full stops", () => {
    expect(sentencesOf("등록금은 한 학기에 620만 원입니다. 기숙사는 캠퍼스 북쪽에 있습니다.")).toEqual([
      "등록금은 한 학기에 620만 원입니다.",
      "기숙사는 캠퍼스 북쪽에 있습니다.",
    ]);
    expect(sentencesOf("هل الجامعة مفتوحة؟ نعم، كل يوم.")).toEqual(["هل الجامعة مفتوحة؟", "نعم، كل يوم."]);
    expect(sentencesOf("پڑھائی کی فیس آن لائن جمع کریں۔ کتب خانہ صبح کھلتا ہے۔")).toEqual([
      "پڑھائی کی فیس آن لائن جمع کریں۔",
      "کتب خانہ صبح کھلتا ہے۔",
    ]);
    expect(sentencesOf("पुस्तकालय सुबह खुलता है। शुल्क ऑनलाइन जमा करें।")).toEqual([
      "पुस्तकालय सुबह खुलता है।",
      "शुल्क ऑनलाइन जमा करें।",
    ]);
  });

  it("leaves text without sentence punctuation whole (Thai ends a sentence where its line ends)", () => {
    expect(sentencesOf("ค่าเล่าเรียนภาคการศึกษาละ 45,000 บาท ห้องสมุดเปิดทุกวัน")).toEqual([
      "ค่าเล่าเรียนภาคการศึกษาละ 45,000 บาท ห้องสมุดเปิดทุกวัน",
    ]);
  });

  it("makes bullet items sentences of their own, each with its bullet", () => {
    expect(
      sentencesOf("The main features are: • DER encoding support. • No limits for INTEGER values • Thread-safety."),
    ).toEqual([
      "The main features are:",
      "• DER encoding support.",
      "• No limits for INTEGER values",
      "• Thread-safety.",
    ]);
  });

  it("reads a line break as a space: PDF text breaks lines inside sentences", () => {
    expect(sentencesOf("The museum opens\non Monday and closes\non Friday. Tickets\nare free.")).toEqual([
      "The museum opens\non Monday and closes\non Friday.",
      "Tickets\nare free.",
    ]);
    expect(sentencesOf("Admissions\nApply by May 1.\nLate forms are not read.")).toEqual([
      "Admissions\nApply by May 1.",
      "Late forms are not read.",
    ]);
  });

  it("leaves out only the whitespace between sentences", () => {
    const text = "  One sentence here.   Another  one?\tThird!  ";
    expect(sentencesOf(text)).toEqual(["One sentence here.", "Another  one?", "Third!"]);
    expect(sentencesOf(text).join("").replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
    expect(sentencesOf("")).toEqual([]);
    expect(sentencesOf(" \n ")).toEqual([]);
  });
});
