import { describe, expect, it } from "vitest";
import { readableAddress } from "./readable-address";

describe("readableAddress", () => {
  it("shows letters beyond ASCII as a browser's address bar does, and keeps reserved escapes", () => {
    expect(readableAddress("https://example.org/es/admisi%C3%B3n")).toBe("https://example.org/es/admisión");
    expect(readableAddress("https://example.org/zh/%E5%AD%A6%E8%B4%B9?q=a%26b")).toBe(
      "https://example.org/zh/学费?q=a%26b",
    );
    expect(readableAddress("https://example.org/plain")).toBe("https://example.org/plain");
  });

  it("leaves encoded what would change how the text reads, or does not decode", () => {
    // A right-to-left override would make the address read as another one.
    expect(readableAddress("https://example.org/%E2%80%AEfdp.exe")).toBe("https://example.org/%E2%80%AEfdp.exe");
    expect(readableAddress("https://example.org/%0Anext")).toBe("https://example.org/%0Anext");
    expect(readableAddress("https://example.org/%E0%A4")).toBe("https://example.org/%E0%A4");
  });
});
