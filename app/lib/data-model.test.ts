import { describe, expect, it } from "vitest";
import {
  blankFieldRow,
  displayValue,
  fieldFormRow,
  fieldRowErrors,
  fieldRowNeedsSave,
  groupedModel,
} from "./data-model";

const detail = (name: string, group: string, field_type = "text", definition = "") => ({
  id: 1,
  app_id: 1,
  model_type: "user_profile" as const,
  name,
  group,
  field_type: field_type as "text",
  definition,
});

describe("the JSON view", () => {
  it("groups fields in the spec's group order, 'Ungrouped' last, definitions only where given", () => {
    const view = groupedModel([
      detail("tuition", "Budgets & Financials", "number", "Per year"),
      detail("legacy", ""),
      detail("gpa", "Academic Profile", "number"),
      detail("major", "Academic Profile"),
    ]);
    expect(Object.keys(view)).toEqual(["Academic Profile", "Budgets & Financials", "Ungrouped"]);
    expect(view["Academic Profile"]).toEqual({ gpa: { type: "number" }, major: { type: "text" } });
    expect(view["Budgets & Financials"]).toEqual({ tuition: { type: "number", definition: "Per year" } });
    expect(view.Ungrouped).toEqual({ legacy: { type: "text" } });
  });
});

describe("the field rows", () => {
  it("send new rows and changed ones only", () => {
    const saved = fieldFormRow(detail("gpa", "Academic Profile", "number"));
    expect(fieldRowNeedsSave(saved)).toBe(false);
    expect(fieldRowNeedsSave({ ...saved, definition: "Out of 4" })).toBe(true);
    expect(fieldRowNeedsSave(blankFieldRow())).toBe(true);
  });

  it("show program values as text", () => {
    expect([
      displayValue(true),
      displayValue(["a", "b"]),
      displayValue(3.5),
      displayValue(null),
      displayValue({ a: 1 }),
    ]).toEqual(["yes", "a, b", "3.5", "", '{"a":1}']);
  });
});

describe("fieldRowErrors", () => {
  it("names every problem of a row at once: the required cells and a name the API would refuse", () => {
    expect(fieldRowErrors({ ...blankFieldRow(), name: "2nd subject" })).toEqual({
      group: ["This string is required"],
      name: ["Start with a letter; use letters, digits, spaces and _ only"],
      field_type: ["This string is required"],
    });
    expect(
      fieldRowErrors({
        ...blankFieldRow(),
        group: "Learning Interests",
        name: " prénom_étudiant ",
        field_type: "text",
      }),
    ).toBeNull();
  });

  it("takes a space as a space whichever one was typed: a no-break space pasted, an input method's full-width one", () => {
    for (const name of ["home\u00a0town", "学部\u3000名"])
      expect(fieldRowErrors({ ...blankFieldRow(), group: "Others", name, field_type: "text" })).toBeNull();
  });
});
