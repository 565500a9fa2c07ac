import { describe, expect, it } from "vitest";
import { csvField, formatInTimeZone, parseCsv, safeTimeZone, toCsv } from "./csv";

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

describe("dates in a time zone", () => {
  it("writes the local time with the zone's label", () => {
    expect(formatInTimeZone("2026-01-15T12:30:05.000Z", "UTC")).toBe("2026-01-15 12:30:05 UTC");
    expect(formatInTimeZone("2026-07-01T00:00:00.000Z", "America/New_York")).toBe("2026-06-30 20:00:00 EDT");
    expect(formatInTimeZone("2026-07-01T23:15:00.000Z", "Europe/Berlin")).toBe("2026-07-02 01:15:00 GMT+2");
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
