import { describe, expect, it } from "vitest";
import { fileStamp } from "./file-stamp";

describe("fileStamp", () => {
  it("writes UTC to the millisecond", () => {
    expect(fileStamp(new Date("2026-12-04T07:17:00.123Z"))).toBe("20261204-071700-123");
  });

  it("tells apart two times of one second, in the order of time", () => {
    const first = fileStamp(new Date("2026-12-04T07:17:00.001Z"));
    const second = fileStamp(new Date("2026-12-04T07:17:00.999Z"));
    expect(first).not.toBe(second);
    expect([second, first].sort()).toEqual([first, second]);
  });
});
