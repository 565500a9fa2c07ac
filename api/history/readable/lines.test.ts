import { describe, expect, it } from "vitest";
import { MAX_CHANGE_LINES } from "@contract";
import { readableChanges } from ".";
import { fieldLines, listLines, shown, type ListSpec } from "./lines";

/** The wording of change lines, apart from any database: values, lists matched by identity, long texts, the cap. */
const places = (triggerPoint: string) =>
  ({ "": "Default", admissions: "Admissions Assistant" })[triggerPoint] ?? triggerPoint;

interface Topic {
  text: string;
  reply: string;
}
const topics: ListSpec<Topic> = {
  key: (t) => t.text.toLowerCase(),
  name: (t) => `'${t.text}'`,
  fields: [
    { label: "Topic", get: (t) => t.text, inName: true },
    { label: "Canned Response", get: (t) => t.reply },
  ],
};

describe("values", () => {
  it("quotes texts, says empty and none, yes or no, and never a secret's tag", () => {
    expect([shown("a"), shown(""), shown(null), shown(true), shown(0.5), shown(["x", "y"]), shown([])]).toEqual([
      "'a'",
      "(empty)",
      "(none)",
      "Yes",
      "0.5",
      "'x', 'y'",
      "(none)",
    ]);
    expect(shown("[secret not recorded, version 1a2b3c4d]")).toBe("a secret (not recorded)");
    expect(shown("x".repeat(500))).toBe(`'${"x".repeat(120)}…'`);
  });
});

describe("lists", () => {
  it("matches items by identity, not position: one inserted first reads as that one added", () => {
    const before = [
      { text: "Visas", reply: "Ask the office." },
      { text: "Fees", reply: "See the fees page." },
    ];
    const after = [{ text: "Parking", reply: "Ask security." }, ...before];
    expect(listLines("No-Go Topics of Default", topics, before, after)).toEqual([
      { text: "No-Go Topics of Default: added 'Parking' (Canned Response: 'Ask security.')" },
    ]);
  });

  it("reads a kept item with a setting changed as changed, and keeps items sharing an identity apart", () => {
    const before = [
      { text: "Visas", reply: "a" },
      { text: "visas", reply: "b" },
    ];
    const after = [
      { text: "Visas", reply: "c" },
      { text: "visas", reply: "b" },
    ];
    expect(listLines("S", topics, before, after)).toEqual([{ text: "S: changed 'Visas': Canned Response 'a' → 'c'" }]);
    expect(listLines("S", topics, [{ text: "Visas", reply: "a" }], [])).toEqual([
      { text: "S: removed 'Visas' (Canned Response: 'a')" },
    ]);
  });

  it("compares lists of words as sets, and says replaced where both values show alike", () => {
    const fields = [{ label: "Data Tags", get: (s: { tags: string[] }) => s.tags, set: true as const }];
    expect(fieldLines("W", fields, { tags: ["Staged"] }, { tags: ["Production", "Development"] })).toEqual([
      { text: "W: Data Tags: added 'Production', 'Development'; removed 'Staged'" },
    ]);
    const secret = [{ label: "Consumer Secret", get: (s: { v: string }) => s.v }];
    const tag = (version: string) => ({ v: `[secret not recorded, version ${version}]` });
    expect(fieldLines("I", secret, tag("1111"), tag("2222"))).toEqual([{ text: "I: Consumer Secret replaced" }]);
  });
});

describe("long texts", () => {
  it("show only the lines that differ, under a line that says what changed", () => {
    const text = (middle: string) => `One.\nTwo.\n${middle}\nFour.`;
    const lines = readableChanges(
      "input_prompts",
      "admissions",
      [{ internal_name: "fees", prompt_input_raw: text("Three.") }],
      [{ internal_name: "fees", prompt_input_raw: text("Three and a half.") }],
      places,
    );
    expect(lines).toEqual([
      {
        text: "Input Prompts of Admissions Assistant: changed 'fees': Prompt changed",
        before: "…\nThree.\n…",
        after: "…\nThree and a half.\n…",
      },
    ]);
  });
});

describe("long texts, a line added", () => {
  it("show the added line alone, nothing struck", () => {
    const lines = readableChanges(
      "input_prompts",
      "",
      [{ internal_name: "fees", prompt_input_raw: "One.\nTwo." }],
      [{ internal_name: "fees", prompt_input_raw: "One.\nOne and a half.\nTwo." }],
      places,
    );
    expect(lines).toEqual([
      { text: "Input Prompts of Default: changed 'fees': Prompt changed", after: "…\nOne and a half.\n…" },
    ]);
  });
});

describe("the cap", () => {
  it("lists at most MAX_CHANGE_LINES lines, the last counting the rest", () => {
    const fields = Array.from({ length: 50 }, (_, i) => ({
      name: `f${i}`,
      field_type: "text",
      group: "Others",
      definition: "",
    }));
    const lines = readableChanges("data_model", "user_profile", [], fields, places);
    expect(lines).toHaveLength(MAX_CHANGE_LINES);
    expect(lines[0].text).toBe("User Profile Data Model: added 'f0' (Group: 'Others', Type: 'text')");
    expect(lines.at(-1)).toEqual({ text: `… and ${50 - MAX_CHANGE_LINES + 1} more` });
    expect(readableChanges("data_model", "user_profile", [], fields.slice(0, MAX_CHANGE_LINES), places)).toHaveLength(
      MAX_CHANGE_LINES,
    );
  });
});
