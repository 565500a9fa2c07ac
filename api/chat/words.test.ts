import { describe, expect, it } from "vitest";
import { mentions } from "./words";

describe("whether a message raises a Sensitive or No-Go topic", () => {
  it("matches the topic's words in their other forms: plurals, capitals and accents", () => {
    expect(mentions("What are the application fees?", "fee")).toBe(true);
    expect(mentions("Which refund policies apply?", "refund policy")).toBe(true);
    expect(mentions("How do I report abuses in housing?", "abuse")).toBe(true);
    expect(mentions("HOW DO I GET A VISA?", "visas")).toBe(true);
    expect(mentions("Can you check my résumé?", "resume")).toBe(true);
    expect(mentions("Can you check my resume?", "Résumé")).toBe(true);
    // The same accent written as a letter and a combining mark.
    expect(mentions("Can you check my re\u0301sume\u0301?", "résumé")).toBe(true);
  });

  it("does not take another word that merely starts the same way for the topic", () => {
    expect(mentions("What support do international students get?", "internships")).toBe(false);
    expect(mentions("How competitive is the nursing program?", "competitors")).toBe(false);
    expect(mentions("Where do I sign my housing contract?", "contraception")).toBe(false);
    expect(mentions("Is there a discount for siblings?", "discourse")).toBe(false);
  });

  it("matches topics in other scripts and short words", () => {
    expect(mentions("我想申请奖学金", "奖学金")).toBe(true);
    expect(mentions("签证怎么办？", "签证")).toBe(true);
    expect(mentions("Сколько стоит виза?", "визы")).toBe(true);
    expect(mentions("Do you use AI to grade essays?", "AI")).toBe(true);
    expect(mentions("When is the tour?", "AI")).toBe(false);
  });

  it("needs every word of the topic", () => {
    expect(mentions("Can you give me legal advice?", "legal advice")).toBe(true);
    expect(mentions("Can you give me advice on courses?", "legal advice")).toBe(false);
    // A topic of stop words only names nothing and raises nothing.
    expect(mentions("What is this?", "what is this")).toBe(false);
  });
});
