import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Insights } from "@contract";
import { clientApps, conversations, messages, visitorProfiles } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { readInsights } from "./queries";
import { rebuildInsightDays } from "./rollups";

/*
 * Insights counts UTC days. A self-hosted PostgreSQL's sessions start in its host's time zone
 * (here Pacific/Auckland, 13 hours ahead in March): the days must come out the same.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;

/** A lead's conversation started, and its answer rated down, at each of these instants. */
const AT = {
  dayBefore: "2026-03-09T23:30:00.000Z",
  firstDay: "2026-03-10T00:30:00.000Z",
  lastDay: "2026-03-11T23:30:00.000Z",
  dayAfter: "2026-03-12T00:30:00.000Z",
};
const FROM = "2026-03-10";
const TO = "2026-03-11";

beforeAll(async () => {
  host = await startTestHost({}, {}, { timeZone: "Pacific/Auckland" });
  call = apiCaller(host);
  admin = (await signInAs(host, "admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps)).find((a) => a.urlCode === "northfield")!.id;
  for (const [name, iso] of Object.entries(AT)) {
    const id = randomUUID();
    const at = new Date(iso);
    await host.deps.db.insert(conversations).values({
      id,
      appId,
      environment: "prod",
      triggerPoint: "admissions",
      startedAt: at,
      lastMessageAt: at,
      questionCount: 1,
    });
    await host.deps.db.insert(messages).values([
      { conversationId: id, appId, role: "user", text: `Question of ${name}`, createdAt: at },
      {
        conversationId: id,
        appId,
        role: "assistant",
        text: "…",
        outcome: "fallback",
        rating: "down",
        ratedAt: at,
        createdAt: at,
      },
    ]);
    await host.deps.db
      .insert(visitorProfiles)
      .values({ conversationId: id, appId, values: { email: `${name}@example.com` }, isLead: true });
  }
  await rebuildInsightDays(appId, ["2026-03-09", FROM, TO, "2026-03-12"], host.deps.db);
});
afterAll(() => host?.close());

/** What the days show: each day's figures, the leads and the answers rated down. */
const figures = (insights: Insights) => ({
  days: insights.days.map((d) => ({
    day: d.day,
    conversations: d.conversations,
    questions: d.questions,
    leads: d.leads,
  })),
  leads: insights.leads.captured,
  leadsStarted: insights.leads.top.map((lead) => lead.started_at).sort(),
  unhelpful: insights.unhelpful.total,
  ratedAt: insights.unhelpful.answers.map((answer) => answer.rated_at).sort(),
});

const UTC_DAYS = {
  days: [
    { day: FROM, conversations: 1, questions: 1, leads: 1 },
    { day: TO, conversations: 1, questions: 1, leads: 1 },
  ],
  leads: 2,
  leadsStarted: [AT.firstDay, AT.lastDay],
  unhelpful: 2,
  ratedAt: [AT.firstDay, AT.lastDay],
};

describe("Insights' days", () => {
  it("are UTC days on a database whose default time zone is not UTC", async () => {
    const { status, body } = await call("GET", `/v1/apps/${appId}/insights?from=${FROM}&to=${TO}`, { token: admin });
    expect(status).toBe(200);
    expect(figures(body as Insights)).toEqual(UTC_DAYS);
  });

  it.each(["Pacific/Auckland", "America/Los_Angeles"])(
    "are UTC days when the session's time zone is %s",
    async (zone) => {
      const read = await host.deps.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('TimeZone', ${zone}, true)`);
        return readInsights({ appId, from: FROM, to: TO, environment: "all" }, { db: tx });
      });
      expect(figures(read)).toEqual(UTC_DAYS);
    },
  );
});
