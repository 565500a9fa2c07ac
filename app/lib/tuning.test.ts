import { describe, expect, it } from "vitest";
import { inputPromptRows, type Finetuning } from "@contract";
import { checkFinetuningRow } from "./tuning.schema";
import {
  blankPromptRow,
  changedFinetuningFields,
  finetuningFormRow,
  isBlankNewFinetuning,
  finetuningHasChanges,
  finetuningInputOf,
  finetuningRowNeedsSave,
  finetuningsIntent,
  isNewFinetuning,
  nextTemporaryId,
  promptFormRow,
  promptRowNeedsSave,
  siteOptions,
  siteOptionsFor,
  withBlankFinetuningRow,
  withoutFinetuningRow,
  type FinetuningFormRow,
} from "./tuning";

const rule = (overrides: Partial<Finetuning> = {}): Finetuning => ({
  id: 7,
  app_id: 1,
  trigger_point: "",
  finetuning_type: "url_pattern",
  pattern: "/news/",
  penalty: 0.5,
  metadata: {},
  ...overrides,
});

const newRow = (overrides: Partial<FinetuningFormRow> = {}): FinetuningFormRow => ({
  id: "new-1",
  trigger_point: "",
  finetuning_type: "url_pattern",
  pattern: "",
  penalty: "",
  metadata: "",
  deleted: false,
  loaded: null,
  ...overrides,
});

describe("input prompt rows", () => {
  it("a new row is always sent; a saved one only once changed", () => {
    expect(promptRowNeedsSave(blankPromptRow())).toBe(true);
    const saved = promptFormRow({
      id: 3,
      app_id: 1,
      internal_name: "greeting",
      prompt_input_raw: "Hello",
      trigger_point: "",
      updated_at: "",
    });
    expect(saved).toEqual({
      id: "3",
      internal_name: "greeting",
      prompt_input_raw: "Hello",
      loaded: { internal_name: "greeting", prompt_input_raw: "Hello" },
    });
    expect(promptRowNeedsSave(saved)).toBe(false);
    expect(promptRowNeedsSave({ ...saved, prompt_input_raw: "Hi" })).toBe(true);
  });

  it("the prompt box grows from 6 to 10 rows at 60 characters a row", () => {
    expect(inputPromptRows("")).toBe(6);
    expect(inputPromptRows("x".repeat(7 * 60))).toBe(7);
    expect(inputPromptRows("x".repeat(5000))).toBe(10);
  });
});

describe("finetuning rows", () => {
  it("loads a rule as text, unchanged until edited", () => {
    const row = finetuningFormRow(rule());
    expect(row).toMatchObject({
      id: "7",
      penalty: "0.5",
      metadata: "",
      deleted: false,
      loaded: { pattern: "/news/", penalty: "0.5" },
    });
    expect(isNewFinetuning(row)).toBe(false);
    expect(finetuningHasChanges(row)).toBe(false);
    // The same number or the same JSON written differently is no change.
    expect(finetuningHasChanges({ ...row, penalty: "0.50" })).toBe(false);
    expect(changedFinetuningFields({ ...row, pattern: "/events/", penalty: "0.7" })).toEqual(
      new Set(["pattern", "penalty"]),
    );
    const cleanup = finetuningFormRow(
      rule({ finetuning_type: "html_tags_to_remove", pattern: "", penalty: null, metadata: { tags: ["footer"] } }),
    );
    expect(cleanup.metadata).toBe('{"tags":["footer"]}');
    expect(finetuningHasChanges({ ...cleanup, metadata: '{ "tags": [ "footer" ] }' })).toBe(false);
    expect(finetuningHasChanges({ ...cleanup, metadata: '{"tags":["nav"]}' })).toBe(true);
  });

  it("new rows get temporary ids; a deleted new row goes, a deleted saved row is marked", () => {
    const saved = finetuningFormRow(rule());
    const rows = withBlankFinetuningRow(withBlankFinetuningRow([saved], "url_pattern"), "html_tags");
    expect(rows.map((r) => [r.id, r.finetuning_type])).toEqual([
      ["new-2", "html_tags_to_remove"],
      ["new-1", "url_pattern"],
      ["7", "url_pattern"],
    ]);
    expect(withBlankFinetuningRow([], "page_type")[0].finetuning_type).toBe("html_weightage");
    expect(nextTemporaryId([{ id: "new-4" }, { id: "12" }])).toBe("new-5");
    const afterDeletes = withoutFinetuningRow(withoutFinetuningRow(rows, 2), 0);
    expect(afterDeletes.map((r) => [r.id, r.deleted])).toEqual([
      ["new-1", false],
      ["7", true],
    ]);
  });

  it("sends new rows with something in them, changed rows and deletions of saved rules", () => {
    expect(finetuningRowNeedsSave(newRow())).toBe(false); // blank: ignored
    expect(finetuningRowNeedsSave(newRow({ finetuning_type: "html_tags_to_remove", metadata: "  " }))).toBe(false);
    expect(finetuningRowNeedsSave(newRow({ pattern: "/news/" }))).toBe(true);
    expect(finetuningRowNeedsSave(newRow({ trigger_point: "admissions" }))).toBe(true);
    expect(finetuningRowNeedsSave(newRow({ deleted: true, pattern: "/x/" }))).toBe(false);
    const saved = finetuningFormRow(rule());
    expect(finetuningRowNeedsSave(saved)).toBe(false);
    expect(finetuningRowNeedsSave({ ...saved, deleted: true })).toBe(true);
    expect(finetuningInputOf({ ...saved, pattern: "/edited/", deleted: true })).toEqual({
      id: 7,
      trigger_point: "",
      finetuning_type: "url_pattern",
      deleted: true,
    });
    expect(finetuningInputOf({ ...newRow(), pattern: "/news/", penalty: "0.25" })).toEqual({
      id: null,
      trigger_point: "",
      finetuning_type: "url_pattern",
      pattern: "/news/",
      penalty: "0.25",
      metadata: "",
    });
  });

  it("checks a row as the API does, each message on its cell", () => {
    expect(checkFinetuningRow(newRow())).toEqual({ blank: true, errors: null });
    expect(checkFinetuningRow(newRow({ pattern: "/news/", penalty: "0.5" }))).toEqual({ blank: false, errors: null });
    expect(checkFinetuningRow(newRow({ pattern: "/news/", penalty: "2" })).errors).toEqual({
      penalty: ["The penalty must be a number from 0 to 1"],
    });
    expect(checkFinetuningRow(newRow({ pattern: "/news/", penalty: "half" })).errors).toEqual({
      penalty: ["The penalty must be a number from 0 to 1"],
    });
    expect(checkFinetuningRow(newRow({ penalty: "0.5" })).errors).toEqual({
      pattern: ["Enter a pattern (use * to match every page)"],
    });
    expect(checkFinetuningRow(newRow({ pattern: "*" })).errors?.penalty?.[0]).toMatch(/for example 0\.5/);
    const cleanup = (overrides: Partial<FinetuningFormRow>) =>
      newRow({ finetuning_type: "html_tags_to_remove", ...overrides });
    expect(checkFinetuningRow(cleanup({ metadata: "{tags: footer" })).errors).toEqual({
      metadata: [expect.stringMatching(/^Metadata must be a JSON object/)],
    });
    expect(checkFinetuningRow(cleanup({ metadata: '{"tags": ["<script>"]}' })).errors?.metadata?.[0]).toMatch(
      /tag name/,
    );
    expect(
      checkFinetuningRow(cleanup({ metadata: '{"tags": ["footer"]}', trigger_point: "admissions" })).errors,
    ).toEqual({
      trigger_point: [expect.stringMatching(/choose Default as the site/)],
    });
    expect(checkFinetuningRow(cleanup({ metadata: '{"tags": ["footer", ".promo"]}' })).errors).toBeNull();
    // A saved rule emptied is not a blank row to ignore: it must still be complete.
    const emptied = { ...finetuningFormRow(rule()), pattern: "", penalty: "" };
    expect(Object.keys(checkFinetuningRow(emptied).errors ?? {})).toEqual(["pattern", "penalty"]);
  });

  it("tells a blank new row without zod exactly as the contract's check does", () => {
    const cleanup = (metadata: string) => newRow({ finetuning_type: "html_tags_to_remove", metadata });
    const rows = [
      newRow(),
      newRow({ trigger_point: "  ", pattern: " ", penalty: " " }),
      newRow({ pattern: "/news/" }),
      newRow({ penalty: "0" }),
      newRow({ penalty: "half" }),
      newRow({ trigger_point: "admissions" }),
      newRow({ finetuning_type: "pdf_weightage", metadata: '{"tags": []}' }),
      cleanup(""),
      cleanup(" {} "),
      cleanup("[]"),
      cleanup("{tags"),
      cleanup('{"tags": ["footer"]}'),
      newRow({ finetuning_type: "nothing" }),
    ];
    for (const row of rows) expect(isBlankNewFinetuning(row), JSON.stringify(row)).toBe(checkFinetuningRow(row).blank);
    expect(rows.filter(isBlankNewFinetuning)).toHaveLength(5);
  });

  it("reads the pressed button", () => {
    expect(finetuningsIntent("save")).toEqual({ kind: "save" });
    expect(finetuningsIntent("add-row:html_tags")).toEqual({ kind: "add-row", table: "html_tags" });
    expect(finetuningsIntent("delete-row:3")).toEqual({ kind: "delete-row", index: 3 });
    expect(finetuningsIntent("add-row:nothing")).toEqual({ kind: "unknown" });
  });

  it("offers Default, the trigger points and the agents' site codes once each", () => {
    const sites = siteOptions({
      trigger_points: ["admissions", "events"],
      agents: [{ site_code: "admissions" }, { site_code: "studentsuccess" }, { site_code: "" }],
    });
    expect(sites).toEqual([
      { value: "", label: "Default" },
      { value: "admissions", label: "admissions" },
      { value: "events", label: "events" },
      { value: "studentsuccess", label: "studentsuccess" },
    ]);
    expect(siteOptionsFor(sites, "retired").at(-1)).toEqual({ value: "retired", label: "retired" });
    expect(siteOptionsFor(sites, "events")).toHaveLength(4);
  });
});
