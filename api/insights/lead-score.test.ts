import { describe, expect, it } from "vitest";
import { mayDescribeVisitor, questionPartOf, readProfileValues } from "../chat/profile-capture";
import { fieldScore, leadScore } from "./lead-score";

const fields = [
  { name: "first_name", field_type: "text" },
  { name: "email", field_type: "text" },
  { name: "phone", field_type: "text" },
  { name: "intended_major", field_type: "text" },
  { name: "gpa", field_type: "number" },
];

describe("what a visitor says about themselves", () => {
  it("reads names after 'My name is' or 'I'm', values to the end of their clause, numbers as numbers", () => {
    expect(readProfileValues("My name is Ana Lopez and my intended major is marine biology, thanks", fields)).toEqual({
      first_name: "Ana",
      intended_major: "marine biology",
    });
    expect(readProfileValues("i'm Bo; reach me at bo@example.org or +1 (555) 010-2233. My gpa is 3.7", fields)).toEqual(
      { first_name: "Bo", email: "bo@example.org", phone: "+1 (555) 010-2233", gpa: 3.7 },
    );
    expect(readProfileValues("my gpa is excellent but my major is undecided", fields)).toEqual({});
  });

  it("reads a client's fields only for a message that may hold such a value", () => {
    for (const message of [
      "My name is Ana",
      "i'm Bo",
      "This is Carla",
      "reach me at bo@example.org",
      "call +1 (555) 010-2233",
      "my gpa is 3.7",
    ]) {
      expect(mayDescribeVisitor(message), message).toBe(true);
    }
    // Questions, which are most messages: none of the lead-ins, no address or number to read.
    for (const message of [
      "How much is tuition?",
      "When is the application deadline for 2026?",
      "Where is the nursing program taught?",
      "Is myopia covered?",
    ]) {
      expect(mayDescribeVisitor(message), message).toBe(false);
      expect(readProfileValues(message, fields), message).toEqual({});
    }
  });

  it("reads an email or phone field only from an address or a number, and a yes/no field only from a yes or a no", () => {
    const withAid = [...fields, { name: "needs_financial_aid", field_type: "boolean" }];
    expect(
      readProfileValues("my email is none of your business and my phone is unlisted. What are tuition fees?", withAid),
    ).toEqual({});
    expect(readProfileValues("my needs financial aid is maybe", withAid)).toEqual({});
    expect(readProfileValues("my needs financial aid is <svg onload=alert(4)>yes", withAid)).toEqual({});
    expect(readProfileValues("my needs financial aid is Yes", withAid)).toEqual({ needs_financial_aid: true });
    expect(readProfileValues("my needs financial aid is no, thanks", withAid)).toEqual({ needs_financial_aid: false });
    expect(readProfileValues("my email is zoe@example.com and my phone is 555-0142", withAid)).toEqual({
      email: "zoe@example.com",
      phone: "555-0142",
    });
  });

  it("reads no phone number in a range of years or a short number", () => {
    for (const message of [
      "What happened in 1973-1974?",
      "Who led it from 1869 – 1909?",
      "What is tuition for 2012 - 13?",
    ]) {
      expect(mayDescribeVisitor(message), message).toBe(false);
      expect(readProfileValues(message, fields), message).toEqual({});
    }
    expect(readProfileValues("Call me on 555-0142", fields)).toEqual({ phone: "555-0142" });
    expect(readProfileValues("my number is +44 20 7946 0958", fields)).toEqual({ phone: "+44 20 7946 0958" });
  });

  it("searches a question without the name, email and phone number the visitor gives with it", () => {
    expect(questionPartOf("Hi, I'm Maya Chen, maya.chen@example.net. What does tuition cost?")).toBe(
      "Hi. What does tuition cost?",
    );
    expect(questionPartOf("My name is Ana, when do tours leave? Call me at +1 (555) 010-2233.")).toBe(
      "when do tours leave? Call me at.",
    );
    // A question is searched as it is; a message that only introduces the visitor is kept whole.
    expect(questionPartOf("What happened in 1973-1974?")).toBe("What happened in 1973-1974?");
    expect(questionPartOf("I'm Maya Chen, maya.chen@example.net")).toBe("I'm Maya Chen, maya.chen@example.net");
  });
});

describe("what a visitor says about themselves, in any script", () => {
  const named = [...fields, { name: "full_name", field_type: "text" }];

  it("reads a name capitalised in any script that has capitals, and one without them after 'my name is'", () => {
    expect(
      readProfileValues("Hi, my name is Émilie Dubois, emilie.dubois@example.fr. What is tuition?", named),
    ).toEqual({ first_name: "Émilie", full_name: "Émilie Dubois", email: "emilie.dubois@example.fr" });
    expect(readProfileValues("My name is Łukasz Nowak", named)).toEqual({
      first_name: "Łukasz",
      full_name: "Łukasz Nowak",
    });
    // A smart apostrophe, as phones type one.
    expect(readProfileValues("I’m Ömer", named)).toEqual({ first_name: "Ömer", full_name: "Ömer" });
    // Decomposed (NFD): a capital and its combining accent.
    expect(readProfileValues("I am E\u0301milie", named).first_name).toBe("E\u0301milie");
    expect(readProfileValues("my name is 王小明，我想问学费", named)).toEqual({
      first_name: "王小明",
      full_name: "王小明",
    });
    expect(readProfileValues("My name is محمد and my email is m@example.sa", named)).toMatchObject({
      full_name: "محمد",
    });
    // Han running on into the question cannot be told apart from it: no name rather than a wrong one.
    expect(readProfileValues("my name is 王小明我想问学费多少", named)).toEqual({});
    // Without capitals, only "my name is" says a name follows.
    expect(readProfileValues("I am 想知道学费", named)).toEqual({});
  });

  it("reads an internationalised address whole, or nothing of it", () => {
    const emailOf = (message: string) => readProfileValues(message, fields).email;
    expect(emailOf("my email is jürgen.müller@web.de")).toBe("jürgen.müller@web.de");
    expect(emailOf("write to wang@例子.中国 please")).toBe("wang@例子.中国");
    expect(emailOf("user@пример.рф")).toBe("user@пример.рф");
    expect(emailOf("x@xn--fsqu00a.xn--fiqs8s.")).toBe("x@xn--fsqu00a.xn--fiqs8s");
    expect(emailOf("o'brien@example.ie")).toBe("o'brien@example.ie");
    expect(emailOf("'bob@example.com'")).toBe("bob@example.com");
    // A script written without spaces ends a word where another script starts.
    expect(emailOf("我的邮箱是wang@example.com谢谢")).toBe("wang@example.com");
    expect(emailOf("邮箱是123456@qq.com")).toBe("123456@qq.com");
    // Never the tail or the head of an address.
    for (const message of [
      "bob#1@example.com",
      "x!o'brien@example.ie",
      "a@b@example.com",
      "bob..x@example.com",
      ".bob@example.com",
      "bob@example.c0m",
      "bob@-x.com",
      "bob@x-.com",
    ])
      expect(emailOf(message), message).toBeUndefined();
  });

  it("searches the question without a name or address in any script", () => {
    expect(questionPartOf("Hi, my name is Émilie Dubois, emilie.dubois@example.fr. What is tuition?")).toBe(
      "Hi. What is tuition?",
    );
    expect(questionPartOf("my name is 王小明，我想问学费")).toBe("我想问学费");
    expect(questionPartOf("my email is jürgen.müller@web.de, what does a room cost?")).toBe(
      "my email is, what does a room cost?",
    );
  });
});

describe("the lead score", () => {
  it("adds the documented points and says why; only a way to reach someone makes a lead", () => {
    expect(fieldScore({ first_name: "Ana", intended_major: "biology" })).toEqual({
      score: 18,
      reasons: ["name +10", "1 other field +8"],
      isLead: false,
    });
    expect(
      leadScore({ email: "a@b.co", phone: "555 0102 0304", first_name: "Ana", a: 1, b: 2, c: 3, d: 4 }, 20),
    ).toEqual({
      score: 100,
      reasons: ["email +30", "phone +20", "name +10", "4 other fields +24", "20 questions +16"],
      isLead: true,
    });
    expect(leadScore({ email: "" }, 0)).toEqual({ score: 0, reasons: [], isLead: false });
  });
});
