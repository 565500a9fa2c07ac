import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TestGate, TestRunSummary } from "@contract";
import { GateSummary } from "./GateSummary";

const run = (id: number, environment: "stage" | "prod", more: Partial<TestRunSummary> = {}): TestRunSummary => ({
  id,
  trigger_point: "admissions",
  environment,
  status: "done",
  trigger: "manual",
  passed: 7,
  failed: 0,
  total: 7,
  created_at: "2026-12-05T10:00:00.000Z",
  start_after: "2026-12-05T10:00:00.000Z",
  finished_at: "2026-12-05T10:00:02.000Z",
  ...more,
});

const text = (gate: TestGate) =>
  renderToStaticMarkup(<GateSummary gate={gate} />)
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replace(/\s+/g, " ")
    .trim();

describe("the production gate's summary", () => {
  it("says a newer stage run is still to finish, so the stage figures shown are from before the change that queued it", () => {
    const gate: TestGate = {
      stage: run(41, "stage"),
      prod: run(40, "prod"),
      stage_fails_prod_passes: [],
      stage_pending: run(43, "stage", { status: "queued", trigger: "controls saved", passed: 0, finished_at: null }),
      prod_pending: null,
    };
    expect(text(gate)).toContain(
      "A newer stage run, run 43 (controls saved), is waiting to start: the stage figures above are from before it.",
    );
    const running = {
      ...gate,
      stage_pending: { ...gate.stage_pending!, status: "running" as const, trigger: "manual" },
    };
    expect(text(running)).toContain(
      "A newer stage run, run 43, is running: the stage figures above are from before it.",
    );
    expect(text({ ...gate, stage: null })).toContain(
      "Stage's first run, run 43 (controls saved), is waiting to start.",
    );
  });

  it("says nothing of the kind when no stage run waits", () => {
    const gate: TestGate = {
      stage: run(41, "stage"),
      prod: run(40, "prod"),
      stage_fails_prod_passes: [],
      stage_pending: null,
      prod_pending: null,
    };
    expect(text(gate)).not.toContain("newer stage run");
    expect(text(gate)).not.toContain("newer production run");
  });

  it("says a newer production run is still to finish, so the production figures shown are from before the change that queued it", () => {
    const gate: TestGate = {
      stage: run(41, "stage"),
      prod: run(40, "prod"),
      stage_fails_prod_passes: [],
      stage_pending: null,
      prod_pending: run(44, "prod", { status: "running", trigger: "file indexed", finished_at: null }),
    };
    expect(text(gate)).toContain(
      "A newer production run, run 44 (file indexed), is running: the production figures above are from before it.",
    );
    expect(text({ ...gate, prod: null })).toContain("Production's first run, run 44 (file indexed), is running.");
  });
});
