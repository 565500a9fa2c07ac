import { describe, expect, it } from "vitest";
import { chosenFile, chosenFiles, textOf } from "./form-fields.server";

/** A file input the browser left empty: no name, no bytes. */
const emptyInput = () => new File([], "", { type: "application/octet-stream" });

describe("textOf", () => {
  it("reads a text field as posted", () => {
    const form = new FormData();
    form.set("name", " Northfield ");
    expect(textOf(form, "name")).toBe(" Northfield ");
  });

  it("reads a missing field or a file as nothing", () => {
    const form = new FormData();
    form.set("logo", new File(["x"], "logo.png"));
    expect(textOf(form, "missing")).toBe("");
    expect(textOf(form, "logo")).toBe("");
  });
});

describe("chosenFile", () => {
  it("counts a file with a name or bytes as chosen", () => {
    expect(chosenFile(new File(["x"], "logo.png"))).toBe(true);
    expect(chosenFile(new File([], "empty.png"))).toBe(true);
  });

  it("does not count an input left empty, a missing field or text", () => {
    expect(chosenFile(emptyInput())).toBe(false);
    expect(chosenFile(null)).toBe(false);
    expect(chosenFile("logo.png")).toBe(false);
  });

  it("keeps only the chosen files of a multiple input", () => {
    const form = new FormData();
    form.append("files", emptyInput());
    form.append("files", new File(["%PDF"], "a.pdf"));
    form.append("files", "b.pdf");
    expect(chosenFiles(form, "files").map((file) => file.name)).toEqual(["a.pdf"]);
  });
});
