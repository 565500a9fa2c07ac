import { describe, expect, it } from "vitest";
import { FIX_ROWS_MESSAGE, ROW_ERROR } from "~/components/editable-table/rows";
import { ApiError } from "./api/client.server";
import {
  cellsByField,
  changedElsewhere,
  rebaseOnStored,
  rowErrorsFromApi,
  savedIdOf,
  tableIntent,
  type ApiRows,
} from "./table-kit.server";

const people: ApiRows = { list: "users", cellOf: cellsByField(["email", "role"], { app_user: "role" }) };
const refusal = (errors: Record<string, string[]>, message = "The given data was invalid") =>
  new ApiError(422, { message, errors });

describe("rowErrorsFromApi", () => {
  // Rows 1 and 3 of the form were sent (as the API's rows 0 and 1): the others were unchanged.
  const sentFrom = [1, 3];

  it("puts a refusal on the cell of the form row the sent row came from", () => {
    const { errors, formError } = rowErrorsFromApi(
      refusal({ "users.1.email": ["Taken"], "users.0.app_user.role": ["Not offered"] }),
      people,
      sentFrom,
      4,
    );
    expect(errors).toEqual([null, { role: ["Not offered"] }, null, { email: ["Taken"] }]);
    expect(formError).toBe(FIX_ROWS_MESSAGE);
  });

  it("gives a field the table has no cell for to the whole row", () => {
    const { errors } = rowErrorsFromApi(
      refusal({ "users.0.id": ["Unknown"], "users.1": ["Gone"] }),
      people,
      sentFrom,
      4,
    );
    expect(errors[1]).toEqual({ [ROW_ERROR]: ["Unknown"] });
    expect(errors[3]).toEqual({ [ROW_ERROR]: ["Gone"] });
  });

  it("says messages about no sent row as the form's message", () => {
    const { errors, formError } = rowErrorsFromApi(
      refusal({ users: ["Too many"], "users.7.email": ["Taken"], "websites.0.url": ["Bad"] }),
      people,
      sentFrom,
      4,
    );
    expect(errors).toEqual([null, null, null, null]);
    expect(formError).toBe("Too many Taken Bad");
  });

  it("says a refusal without field errors as the API said it", () => {
    expect(rowErrorsFromApi(refusal({}, "Not allowed"), people, sentFrom, 4).formError).toBe("Not allowed");
  });
});

describe("cellsByField", () => {
  const cellOf = cellsByField(["tags"], { urls: "url" });

  it("names a field's cell by the path's first segment", () => {
    expect(cellOf(["tags", "2"])).toBe("tags");
    expect(cellOf(["urls", "0"])).toBe("url");
  });

  it("gives anything else, inherited names included, to the row", () => {
    expect(cellOf([])).toBe(ROW_ERROR);
    expect(cellOf(["enabled"])).toBe(ROW_ERROR);
    expect(cellOf(["constructor"])).toBe(ROW_ERROR);
  });
});

describe("tableIntent", () => {
  it("reads a row's own button only where the table offers it", () => {
    expect(tableIntent("discard-row:2")).toEqual({ kind: "discard-row", index: 2 });
    expect(tableIntent("edit-row:2")).toEqual({ kind: "unknown" });
    expect(tableIntent("edit-row:2", ["discard-row", "edit-row"])).toEqual({ kind: "edit-row", index: 2 });
  });
});

describe("savedIdOf", () => {
  it("reads digits as a saved row's id and anything else as none", () => {
    expect(savedIdOf("12")).toBe(12);
    expect(savedIdOf("")).toBeNull();
    expect(savedIdOf("12abc")).toBeNull();
  });
});

describe("rebaseOnStored", () => {
  const row = (typed: Record<string, string>, loaded: Record<string, string>) => ({ id: "1", ...typed, loaded });
  const stored = (values: Record<string, string>) => new Map([["1", values]]);

  it("takes the stored value of a cell this page did not change, and keeps the typed one of a cell it did", () => {
    const { rows, errors } = rebaseOnStored(
      [row({ a: "typed", b: "old" }, { a: "old", b: "old" })],
      stored({ a: "old", b: "elsewhere" }),
      ["a", "b"],
    );
    expect(rows[0]).toMatchObject({ a: "typed", b: "elsewhere", loaded: { a: "old", b: "elsewhere" } });
    expect(errors).toEqual([null]);
  });

  it("flags a cell both changed differently, quoting a short stored value and not a long one", () => {
    const short = rebaseOnStored([row({ a: "mine" }, { a: "old" })], stored({ a: "theirs" }), ["a"]);
    expect(short.errors[0]).toEqual({ a: [changedElsewhere("theirs")] });
    expect(changedElsewhere("theirs")).toBe("Changed to “theirs” since you opened this page; save again to keep yours");
    expect(changedElsewhere("x".repeat(121))).toBe(
      "Changed by someone else since you opened this page; save again to keep yours",
    );
    expect(changedElsewhere("two\nlines")).not.toContain("two");
  });

  it("compares by the given rule, and leaves rows without a stored counterpart alone", () => {
    const same = (_: string, x: string, y: string) => Number(x) === Number(y);
    const { errors } = rebaseOnStored([row({ p: "0.50" }, { p: "0.4" })], stored({ p: "0.5" }), ["p"], same);
    expect(errors).toEqual([null]);
    const fresh = { id: "", p: "1", loaded: null };
    expect(rebaseOnStored([fresh], stored({ p: "2" }), ["p"]).rows[0]).toBe(fresh);
  });
});
