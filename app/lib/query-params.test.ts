import { describe, expect, it } from "vitest";
import { lastPageInstead, readPageParam } from "./query-params";

describe("readPageParam", () => {
  it("reads a plain number within the first page and the API's last", () => {
    expect(readPageParam("3")).toBe(3);
    expect(readPageParam("0")).toBe(1);
    expect(readPageParam("0", 0)).toBe(0);
    expect(readPageParam("-2")).toBe(1);
    expect(readPageParam("2abc")).toBe(1);
    expect(readPageParam(null, 0)).toBe(0);
  });

  it("reads a page too large to count as the API's last, as it does one just past it", () => {
    expect(readPageParam("99999999999999999999")).toBe(readPageParam(String(Number.MAX_SAFE_INTEGER)));
    expect(readPageParam("99999999999999999999")).toBeGreaterThan(1);
    expect(readPageParam("0000000000000000003")).toBe(3);
    expect(readPageParam("9".repeat(1001))).toBe(1);
  });
});

describe("lastPageInstead", () => {
  it("answers the last page for a page past the end, counted from 1 or from 0", () => {
    expect(lastPageInstead(9, { totalCount: 21, totalPages: 3 })).toBe(3);
    expect(lastPageInstead(9, { totalCount: 21, totalPages: 3 }, 0)).toBe(2);
    expect(lastPageInstead(3, { totalCount: 21, totalPages: 3 }, 0)).toBe(2);
  });

  it("leaves a page within the list, and any page of an empty list, as asked", () => {
    expect(lastPageInstead(3, { totalCount: 21, totalPages: 3 })).toBeNull();
    expect(lastPageInstead(2, { totalCount: 21, totalPages: 3 }, 0)).toBeNull();
    expect(lastPageInstead(4, { totalCount: 0, totalPages: 1 })).toBeNull();
    expect(lastPageInstead(4, { totalCount: 0, totalPages: 0 }, 0)).toBeNull();
  });
});
