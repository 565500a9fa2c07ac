import { afterEach, describe, expect, it } from "vitest";
import { lastChangedBy } from "./lastmod";

const at = (iso: string) => Date.parse(iso);
const HOURS_12 = 12 * 3_600_000;

describe("lastChangedBy: the latest moment a sitemap lastmod allows for the page's last change", () => {
  it("reads a time with its zone as that instant", () => {
    expect(lastChangedBy("2026-12-04T22:00:00Z")).toBe(at("2026-12-04T22:00:01Z"));
    expect(lastChangedBy("2026-12-04T22:00:00.250Z")).toBe(at("2026-12-04T22:00:00.250Z"));
    expect(lastChangedBy("2026-12-04T22:00:00+13:00")).toBe(at("2026-12-04T09:00:01Z"));
    expect(lastChangedBy("2026-12-04T22:00:00-05:00")).toBe(at("2026-12-05T03:00:01Z"));
    // To the minute: any second of it.
    expect(lastChangedBy("2026-12-04T22:00+01:00")).toBe(at("2026-12-04T21:01:00Z"));
    // As sitemaps write them besides the standard: a space for the T, an offset without its colon.
    expect(lastChangedBy(" 2026-12-04 22:00:00+0100 ")).toBe(at("2026-12-04T21:00:01Z"));
  });

  it("gives a day, a month or a year its end, as late as any time zone's", () => {
    expect(lastChangedBy("2026-12-04")).toBe(at("2026-12-05T00:00:00Z") + HOURS_12);
    expect(lastChangedBy("2026-12")).toBe(at("2027-01-01T00:00:00Z") + HOURS_12);
    expect(lastChangedBy("2026-02")).toBe(at("2026-03-01T00:00:00Z") + HOURS_12);
    expect(lastChangedBy("2026")).toBe(at("2027-01-01T00:00:00Z") + HOURS_12);
  });

  it("reads a time without a zone as late as any zone would make it", () => {
    // The W3C format wants a zone with a time; the site's own, unknown, is at most 12 hours behind UTC.
    expect(lastChangedBy("2026-12-04T22:00:00")).toBe(at("2026-12-04T22:00:01Z") + HOURS_12);
    expect(lastChangedBy("2026-12-04T22:00")).toBe(at("2026-12-04T22:01:00Z") + HOURS_12);
  });

  it("is no date for anything else, so the page is fetched", () => {
    for (const text of [
      "",
      "yesterday",
      "2026-13",
      "2026-00",
      "2026-02-30",
      "2026-12-04T25:00:00Z",
      "2026-12-04T22:00:00+15:00",
      "Fri, 04 Dec 2026 22:00:00",
      "12/04/2026",
    ])
      expect(lastChangedBy(text), text).toBeNull();
  });

  describe("whatever the server's time zone", () => {
    const zone = process.env.TZ;
    afterEach(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    const formats = [
      "2026-12-04T22:00:00",
      "2026-12-04T22:00",
      "2026-12-04",
      "2026-12",
      "2026",
      "2026-12-04T22:00:00Z",
    ];

    it.each(["Pacific/Auckland", "America/Los_Angeles", "Asia/Kolkata"])("reads the same in %s as in UTC", (other) => {
      process.env.TZ = "UTC";
      const inUtc = formats.map(lastChangedBy);
      process.env.TZ = other;
      expect(new Date(2026, 11, 4).getTimezoneOffset()).not.toBe(0);
      expect(formats.map(lastChangedBy)).toEqual(inUtc);
    });
  });
});
