import { describe, expect, it } from "vitest";
import { formatDateTime, formatDateTimeUtc } from "./dates";

describe("formatDateTimeUtc", () => {
  it("is the spec's MM/DD/YYYY | HH:mm, in UTC, with the zone said", () => {
    expect(formatDateTimeUtc("2026-01-12T03:10:59Z")).toBe("01/12/2026 | 03:10 UTC");
    // A time given in another zone is shown in UTC: 23:30 in New York is the next day there.
    expect(formatDateTimeUtc("2026-12-31T23:30:00-05:00")).toBe("01/01/2027 | 04:30 UTC");
    expect(formatDateTimeUtc(new Date(Date.UTC(2026, 6, 4, 9, 5)))).toBe("07/04/2026 | 09:05 UTC");
  });

  it("adds only the zone to what formatDateTime shows", () => {
    const value = "2026-03-08T17:45:00Z";
    expect(formatDateTimeUtc(value)).toBe(`${formatDateTime(value)} UTC`);
  });

  it("shows nothing, not a lone zone, for a value that is not a date", () => {
    expect(formatDateTimeUtc("")).toBe("");
    expect(formatDateTimeUtc("not a date")).toBe("");
  });
});
