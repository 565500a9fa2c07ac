import { describe, expect, it } from "vitest";
import { extractPrograms, programNameOf, readField } from "./extract-programs";

const section = (heading: string, text: string) => ({
  sourceUrl: "https://u.example/programs/",
  pageTitle: "Programs | U",
  headingPath: ["Programs", heading],
  text,
});

describe("rule-based program extraction", () => {
  it("takes headings that name a program, and only those", () => {
    expect(programNameOf("Nursing (BSN)")).toBe("Nursing (BSN)");
    expect(programNameOf("Master of Business Administration")).toBe("Master of Business Administration");
    expect(programNameOf("Certificate in Data Analytics")).toBe("Certificate in Data Analytics");
    expect(programNameOf("Programs")).toBeNull();
    expect(programNameOf("Page 3")).toBeNull();
    expect(programNameOf("Campus life")).toBeNull();
  });

  it("reads each type from the sentence about the field: numbers nearest the mention, negations, lists, labels", () => {
    const text =
      "The program admits 120 students each fall. Clinical placements start in the second year. A GMAT score is not required. Students choose a concentration in software engineering, data science or security. Tuition: 12,400 per semester.";
    expect(
      readField({ name: "annual_intake", definition: "Students admitted each year", field_type: "number" }, "X", text)
        ?.value,
    ).toBe(120);
    expect(readField({ name: "gmat_required", definition: "", field_type: "boolean" }, "X", text)?.value).toBe(false);
    expect(readField({ name: "concentrations", definition: "", field_type: "array" }, "X", text)?.value).toEqual([
      "software engineering",
      "data science",
      "security",
    ]);
    expect(readField({ name: "tuition", definition: "", field_type: "number" }, "X", text)).toEqual({
      value: 12400,
      sentence: "Tuition: 12,400 per semester.",
    });
    expect(readField({ name: "program_name", definition: "", field_type: "text" }, "Nursing (BSN)", text)?.value).toBe(
      "Nursing (BSN)",
    );
    // Nothing about it: no value rather than a guess.
    expect(
      readField({ name: "application_deadline", definition: "When applications close", field_type: "text" }, "X", text),
    ).toBeNull();
  });

  it("merges a program's sections and keeps the first page's URL", () => {
    const found = extractPrograms(
      [
        section("Nursing (BSN)", "A four-year program."),
        { ...section("Nursing (BSN)", "Tuition: 12,400 per semester."), sourceUrl: "https://u.example/tuition" },
        section("Visiting campus", "Tours run on Fridays."),
      ],
      [
        { name: "duration_years", definition: "", field_type: "number" },
        { name: "tuition", definition: "", field_type: "number" },
      ],
    );
    expect(found).toEqual([
      {
        name: "Nursing (BSN)",
        sourceUrl: "https://u.example/programs/",
        values: { duration_years: 4, tuition: 12400 },
        evidence: { duration_years: "A four-year program.", tuition: "Tuition: 12,400 per semester." },
      },
    ]);
  });
});
