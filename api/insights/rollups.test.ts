import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Insights } from "@contract";
import { clientApps, conversations, messages } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { rebuildInsightDays, splitByMonths } from "./rollups";

describe("splitByMonths", () => {
  it("reads whole months inside a range and days at its ends", () => {
    expect(splitByMonths("2026-01-15", "2026-04-10")).toEqual({
      months: ["2026-02-01", "2026-03-01"],
      dayRanges: [
        ["2026-01-15", "2026-01-31"],
        ["2026-04-01", "2026-04-10"],
      ],
    });
    expect(splitByMonths("2026-02-01", "2026-02-28")).toEqual({ months: ["2026-02-01"], dayRanges: [] });
    expect(splitByMonths("2024-02-01", "2024-03-01")).toEqual({
      months: ["2024-02-01"],
      dayRanges: [["2024-03-01", "2024-03-01"]],
    });
    expect(splitByMonths("2026-05-03", "2026-05-30")).toEqual({
      months: [],
      dayRanges: [["2026-05-03", "2026-05-30"]],
    });
    expect(splitByMonths("2025-12-31", "2026-01-31")).toEqual({
      months: ["2026-01-01"],
      dayRanges: [["2025-12-31", "2025-12-31"]],
    });
  });

  // The month after 9999-12 is written "+010000-01-01", which sorts before "9999-…" as text: a
  // walk comparing texts never ended there and filled the heap.
  it("ends at the calendar's last month, and reads the years 1–99 as themselves", () => {
    expect(splitByMonths("9999-12-02", "9999-12-31")).toEqual({
      months: [],
      dayRanges: [["9999-12-02", "9999-12-31"]],
    });
    expect(splitByMonths("9999-11-15", "9999-12-31")).toEqual({
      months: ["9999-12-01"],
      dayRanges: [["9999-11-15", "9999-11-30"]],
    });
    expect(splitByMonths("0050-01-05", "0050-03-31")).toEqual({
      months: ["0050-02-01", "0050-03-01"],
      dayRanges: [["0050-01-05", "0050-01-31"]],
    });
  });
});

describe("questions over months", () => {
  let host: Awaited<ReturnType<typeof startTestHost>>;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let appId: number;

  /** Stored conversations on given days (as the chat stores them), then their days recounted. */
  beforeAll(async () => {
    host = await startTestHost();
    call = apiCaller(host);
    admin = (await signInAs(host, "admin@example.com")).user_token;
    appId = (await host.deps.db.select().from(clientApps)).find((a) => a.urlCode !== "northfield")!.id;
    const asked: [string, string, string][] = [
      ["2026-01-20", "Do you ship to Norway?", "answered"],
      ["2026-02-03", "do you ship to norway", "fallback"],
      ["2026-02-27", "Do you ship to Norway?!", "answered"],
      ["2026-03-15", "Where is my order?", "fallback"],
      ["2026-04-02", "Do you ship to Norway?", "answered"],
      ["2026-04-30", "Where is my order", "answered"],
    ];
    for (const [day, question, outcome] of asked) {
      const id = randomUUID();
      const at = new Date(`${day}T12:00:00Z`);
      await host.deps.db.insert(conversations).values({
        id,
        appId,
        environment: "prod",
        triggerPoint: "shop",
        startedAt: at,
        lastMessageAt: at,
        questionCount: 1,
      });
      await host.deps.db.insert(messages).values([
        { conversationId: id, appId, role: "user", text: question, createdAt: at },
        { conversationId: id, appId, role: "assistant", text: "…", outcome, createdAt: new Date(at.getTime() + 1000) },
      ]);
    }
    await rebuildInsightDays(
      appId,
      asked.map(([day]) => day),
      host.deps.db,
    );
  });
  afterAll(() => host?.close());

  const questions = async (from: string, to: string) =>
    ((await call("GET", `/v1/apps/${appId}/insights?from=${from}&to=${to}`, { token: admin })).body as Insights)
      .top_questions;

  it("count the same through whole months and through days, each shown as its latest ask was worded", async () => {
    // January's end from days, February and March as months, April's start from days.
    expect(await questions("2026-01-15", "2026-04-10")).toEqual([
      { question: "do you ship to norway", asked_as: "Do you ship to Norway?", asked: 4, unanswered: 1 },
      { question: "where is my order", asked_as: "Where is my order?", asked: 1, unanswered: 1 },
    ]);
    expect(await questions("2026-02-01", "2026-04-30")).toEqual([
      { question: "do you ship to norway", asked_as: "Do you ship to Norway?", asked: 3, unanswered: 1 },
      { question: "where is my order", asked_as: "Where is my order", asked: 2, unanswered: 1 },
    ]);
    // The latest wording from a month's rollup (February's last ask), after the days before it.
    expect(await questions("2026-01-15", "2026-02-28")).toEqual([
      { question: "do you ship to norway", asked_as: "Do you ship to Norway?!", asked: 3, unanswered: 1 },
    ]);
    // And from its days, the same.
    expect(await questions("2026-02-02", "2026-02-28")).toEqual([
      { question: "do you ship to norway", asked_as: "Do you ship to Norway?!", asked: 2, unanswered: 1 },
    ]);
    expect(await questions("2026-02-04", "2026-02-26")).toEqual([]);
  });
});
