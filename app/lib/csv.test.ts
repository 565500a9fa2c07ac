import { describe, expect, it } from "vitest";
import { csvField, formatInTimeZone, parseCsv, readCsv, safeTimeZone, toCsv, unguardedCsvText } from "./csv";

describe("csvField", () => {
  it("leaves plain text alone and writes nothing for null", () => {
    expect(csvField("https://a.example/x")).toBe("https://a.example/x");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(42)).toBe("42");
  });

  it("quotes fields with commas, quotes or line breaks, doubling the quotes", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField("cr\rreturn")).toBe('"cr\rreturn"');
  });

  it("guards formula-like text with an apostrophe, and text already starting with one before a formula", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("'=1+1")).toBe("''=1+1");
    expect(csvField("it's =")).toBe("it's =");
    expect(unguardedCsvText("''=1+1")).toBe("'=1+1");
    expect(unguardedCsvText("'=1+1")).toBe("=1+1");
    expect(unguardedCsvText("'quoted'")).toBe("'quoted'");
  });

  it("writes objects as JSON (quoted, since JSON has quotes)", () => {
    expect(csvField({ error_message: "Timeout" })).toBe('"{""error_message"":""Timeout""}"');
  });
});

describe("toCsv and parseCsv", () => {
  it("round-trips awkward fields", () => {
    const rows = [
      ["url", "title", "metadata"],
      ["https://a.example/?q=1,2", 'The "best", really\nyes', '{"a":1}'],
      ["", "", ""],
    ];
    const text = toCsv(rows);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(parseCsv(text)).toEqual(rows);
  });

  it("parses LF-only files and a missing final line end", () => {
    expect(parseCsv("a,b\nc,d")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(parseCsv("")).toEqual([]);
  });
});

describe("readCsv", () => {
  it("keeps a quote inside an unquoted field, as spreadsheet programs read it", () => {
    expect(parseCsv('What does "BSN" stand for?,,Nursing,answered\n')).toEqual([
      ['What does "BSN" stand for?', "", "Nursing", "answered"],
    ]);
    expect(parseCsv('5" screen,a"b"\n')).toEqual([['5" screen', 'a"b"']]);
  });

  it("reads a doubled quote in a quoted field as one, and keeps text after the closing quote", () => {
    expect(parseCsv('"What does ""BSN"" stand for?",x\n')).toEqual([['What does "BSN" stand for?', "x"]]);
    expect(parseCsv('"",""""\n')).toEqual([["", '"']]);
    expect(parseCsv('"120" ft,y\n')).toEqual([["120 ft", "y"]]);
  });

  it("reports a quote never closed where it opened, rather than reading the rest of the file into it", () => {
    const file =
      'question,expect_text\nHow tall is the clock tower?,"120 ft\nWhat is the fee?,$40\nWhen are tours?,10 am\n';
    expect(readCsv(file)).toEqual({
      rows: [["question", "expect_text"]],
      unclosedQuote: { row: 2, column: 2 },
    });
    expect(readCsv('q\n\n"How tall, really?\n').unclosedQuote).toEqual({ row: 3, column: 1 });
    // A doubled quote at the end is a quote inside the field, not its end.
    expect(readCsv('"abc""').unclosedQuote).toEqual({ row: 1, column: 1 });
    expect(() => parseCsv('a,"b')).toThrow("A quote opened in row 1, field 2, is never closed");
  });

  it("counts a quoted field's line breaks as part of it, not as rows", () => {
    expect(readCsv('a,b\r\n"one\r\ntwo",x\r\n"c').unclosedQuote).toEqual({ row: 3, column: 1 });
  });

  it("keeps semicolons as text: a comma separates fields", () => {
    expect(parseCsv("Tours; when?,10 am\n")).toEqual([["Tours; when?", "10 am"]]);
  });

  it("ends a last record without its line end, empty fields included", () => {
    expect(parseCsv("a,")).toEqual([["a", ""]]);
    expect(parseCsv('a\n""')).toEqual([["a"], [""]]);
    expect(parseCsv("a\r\n\r\nb")).toEqual([["a"], [""], ["b"]]);
  });
});

describe("dates in a time zone", () => {
  it("writes the local time with the zone's label", () => {
    expect(formatInTimeZone("2026-01-15T12:30:05.000Z", "UTC")).toBe("2026-01-15 12:30:05 UTC");
    expect(formatInTimeZone("2026-07-01T00:00:00.000Z", "America/New_York")).toBe("2026-06-30 20:00:00 EDT");
    expect(formatInTimeZone("2026-07-01T23:15:00.000Z", "Europe/Berlin")).toBe("2026-07-02 01:15:00 GMT+2");
  });

  it("keeps each zone's time apart when rows alternate between more zones than are kept", () => {
    const zones = Intl.supportedValuesOf("timeZone").slice(0, 100);
    const at = "2026-07-01T12:00:00.000Z";
    const once = zones.map((zone) => formatInTimeZone(at, zone));
    expect(zones.map((zone) => formatInTimeZone(at, zone))).toEqual(once);
    expect(formatInTimeZone(at, "Asia/Tokyo")).toBe("2026-07-01 21:00:00 GMT+9");
    expect(formatInTimeZone(at, "UTC")).toBe("2026-07-01 12:00:00 UTC");
  });

  it("writes nothing for a missing date", () => {
    expect(formatInTimeZone(null, "UTC")).toBe("");
    expect(formatInTimeZone("not a date", "UTC")).toBe("");
  });

  it("falls back to UTC for an unknown zone", () => {
    expect(safeTimeZone("Mars/Olympus")).toBe("UTC");
    expect(safeTimeZone(undefined)).toBe("UTC");
    expect(safeTimeZone("Asia/Kolkata")).toBe("Asia/Kolkata");
  });
});
