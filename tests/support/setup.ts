import { afterAll, afterEach, beforeEach, vi } from "vitest";
import { forgetEveryClientsStats } from "../../api/knowledge/index/corpus-stats";
import "./custom-matchers";

// Test files share their runner's process (isolate: false in vitest.config.ts) and each numbers its
// clients from 1 in a database of its own: the next file must not read this one's word counts.
afterAll(() => forgetEveryClientsStats());

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
