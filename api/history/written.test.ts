import { describe, expect, it } from "vitest";
import { importDigest } from "../exports/import-digest";
import { contentOf, controlsTouched } from "./written";

const personality = { id: 7, internal_name: "ai_personality_guidelines", prompt_input_raw: "Be brief." };
const topic = (id: number, text: string) => ({
  id,
  internal_name: "no_go_topics",
  prompt_input_raw: text,
  metadata: { disclaimer: "No." },
});

describe("what of a controls state is a change", () => {
  it("compares topics by what the operator sees of them, not the rows that hold them", () => {
    const before = [personality, topic(1, "Politics"), topic(2, "Religion")];
    const rewritten = [personality, topic(11, "Politics"), topic(12, "Religion")];
    expect(contentOf("controls", before)).toEqual(contentOf("controls", rewritten));
    expect(controlsTouched(before, rewritten)).toEqual([]);
    expect(controlsTouched(before, [personality, topic(11, "Politics"), topic(12, "Sport")])).toEqual(["no_go_topics"]);
  });

  it("keeps the ids of single controls, and every other kind's state whole", () => {
    expect(controlsTouched([personality], [{ ...personality, id: null }])).toEqual(["ai_personality_guidelines"]);
    expect(contentOf("finetuning", [topic(1, "Politics")])).toEqual([topic(1, "Politics")]);
  });

  it("fingerprints an import's change the same when only the rows holding its topics differ", () => {
    const change = (ids: [number, number]) => ({
      kind: "controls",
      target: "",
      summary: "No-Go Topics of Default changed",
      before: [personality, topic(ids[0], "Politics"), topic(ids[1], "Religion")],
      after: [{ ...personality, prompt_input_raw: "Be kind." }, topic(30, "Politics"), topic(31, "Religion")],
    });
    expect(importDigest(1, {}, [change([1, 2])])).toBe(importDigest(1, {}, [change([5, 6])]));
  });
});
