import { afterEach, beforeEach, vi } from "vitest";
import "./custom-matchers";

// A test that makes the code log console.error fails: errors should be asserted, not printed.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length) {
    throw new Error(`console.error was called:\n${errors.map((e) => e.map(String).join(" ")).join("\n")}`);
  }
});
