import { describe, expect, it } from "vitest";
import { formatBytes } from "./format";

describe("formatBytes", () => {
  it("keeps small sizes in bytes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1)).toBe("1 B");
    expect(formatBytes(1023)).toBe("1023 B");
  });

  it("steps by 1024 with at most one decimal", () => {
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(1234)).toBe("1.2 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(10 * 1024 + 512)).toBe("10.5 KB");
    expect(formatBytes(1024 * 1024)).toBe("1 MB");
    expect(formatBytes(5.25 * 1024 * 1024)).toBe("5.3 MB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3 GB");
    expect(formatBytes(2 * 1024 ** 4)).toBe("2 TB");
    expect(formatBytes(4096 * 1024 ** 4)).toBe("4096 TB");
  });

  it("moves to the next unit rather than showing 1024 of one", () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe("1 MB");
    expect(formatBytes(1024 * 1023.99)).toBe("1 MB");
  });

  it("says Unknown for sizes that are not sizes", () => {
    expect(formatBytes(-1)).toBe("Unknown");
    expect(formatBytes(Number.NaN)).toBe("Unknown");
    expect(formatBytes(Number.POSITIVE_INFINITY)).toBe("Unknown");
  });
});

describe("countOf", () => {
  it("says one chunk, not 1 chunks", async () => {
    const { countOf } = await import("./format");
    expect(countOf(1, "chunk")).toBe("1 chunk");
    expect(countOf(0, "chunk")).toBe("0 chunks");
    expect(countOf(1200, "page")).toBe("1,200 pages");
  });
});
